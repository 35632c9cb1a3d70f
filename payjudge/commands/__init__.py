"""One handler per e-mail command, registered in `base.REGISTRY`."""

from . import exchange, master, openers, orders, player  # noqa: F401  (registration)
from .base import REGISTRY, check_vocabulary, lookup  # noqa: F401

check_vocabulary()
