"""Sub-commands of ``python -m bot``; each module has ``register(subparsers)``.

Each ``register`` adds its parser and sets ``handler`` (a function taking the parsed
namespace and returning an exit status) as the parser's default.
"""

COMMANDS: tuple[str, ...] = (
    "compare",
    "check-config",
    "db",
    "export",
    "replay",
    "run",
    "health",
    "sandbox",
    "sim",
    "verify",
)
