"""Command-line commands; each module defines ``register(subparsers)``."""
