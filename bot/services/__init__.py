"""The platform-neutral services: games, puzzles; adapters call them, they call storage."""
