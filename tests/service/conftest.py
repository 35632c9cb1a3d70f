from tests.dbfix import database  # noqa: F401
