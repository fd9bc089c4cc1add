"""lockin: counts the GPU code that could not move off its vendor."""

#: The distribution's name on the package index (`lockin` there is an unrelated program);
#: the command and the import package keep the name `lockin` and `bot`.
DISTRIBUTION = "lockin-gpu"
