"""Adapters from stops to other game and learning frameworks (each an optional extra)."""
