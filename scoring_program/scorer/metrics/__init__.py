"""Shared metric kernels: pure functions over numpy arrays of counts and codes."""
