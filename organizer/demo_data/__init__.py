"""Seeded generators of the demo competitions' data (``python3 -m organizer demo FAMILY``)."""
