"""The kit's checker: the modules the core stands on."""
