"""The version of stops (the distribution ``stops-cards``): the one place it is written."""

__version__ = "0.1.0"
