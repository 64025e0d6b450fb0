"""The kit's checker: its hierarchy reader."""
