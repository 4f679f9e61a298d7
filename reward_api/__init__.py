"""codereward's reward service: schemas, sandboxes, grading, scoring, CLI, gateway and client."""

__version__ = "0.1.0"
