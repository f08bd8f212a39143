"""Records and replay: the ``baloot/1`` format, standing on the engine, never the reverse."""
