"""Duplicate tournaments: who plays what, and the results."""
