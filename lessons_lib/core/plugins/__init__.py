"""The registries of model APIs and examples, the command table and the API shapes (lessons 10, 20, 30)."""
