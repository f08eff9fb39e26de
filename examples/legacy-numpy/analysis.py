"""A small analysis script written against a newer numpy than the project pins (numpy==1.24.2)."""
import numpy as np
from numpy import linalg as la


def area_under(samples, spacing=1.0):
    # numpy.trapezoid only exists from numpy 2.0; numpy 1.24 calls it numpy.trapz.
    return np.trapezoid(samples, dx=spacing)


def summarize(values):
    rng = np.random.default_rng(7)
    noise = rng.normal(size=len(values))
    unique = np.unique(values, equal_nan=False)
    return {
        "norm": la.norm(values + noise),
        "unique": unique,
        "positive": np.float_(np.mean(values)) > 0,
    }
