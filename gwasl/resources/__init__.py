"""The rules tables (JSON data files), shipped inside the package so a wheel install finds them.

Read them through :func:`gwasl.model.terrain.load_resource` (importlib.resources),
never by a path relative to the source tree.
"""
