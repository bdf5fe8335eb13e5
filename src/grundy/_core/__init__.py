"""Typed Cython kernels.  Nothing here imports the Python layer above it."""
