"""What a board publishes once it is scored: the one policy every caller shares (``policy``: placeholders on a
sealed board, rounding, the primary score's interval), the Ladder's released values (``ladder``), and the digests
of the program, config and reference data that scored it (``provenance``)."""
