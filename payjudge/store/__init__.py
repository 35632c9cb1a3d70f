"""The game store: SQLAlchemy models, the database, every query (`repo`), the mail ports.
The only package that imports SQLAlchemy; the others see a `Session` as a unit of work."""

from sqlalchemy.orm import Session  # noqa: F401  (re-exported for type annotations)
