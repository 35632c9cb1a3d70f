"""payjudge: a play-by-email judge for Payola Diplomacy."""

from payjudge import native as _native

# the compiled engines, when built and current (payjudge/native.py says when)
_native.install()
