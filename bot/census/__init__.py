"""Repository censuses: the store of counted commits and its incremental update on push."""
