"""Tests of the line protocol, the dealer and the skeleton bots (docs/protocol.md)."""
