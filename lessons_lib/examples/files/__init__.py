"""The read_text_file example: what-ifs, scenarios, bad values, widgets and commands (lessons 01-11)."""
