"""Which kind each field of a message is, and which type a message is (lesson 03)."""
