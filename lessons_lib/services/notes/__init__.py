"""The reference ``search_notes`` server of lesson 12, and its noisy twin."""
