"""Built-in policies, one module per slot family. :mod:`stops.builtins` registers them."""
