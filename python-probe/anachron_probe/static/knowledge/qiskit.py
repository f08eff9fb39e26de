"""qiskit: nothing special yet."""
from . import Knowledge


class QiskitKnowledge(Knowledge):
    pass
