"""A small sales report written from memory of newer releases than the project pins (see requirements.txt)."""
import matplotlib.cm
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from sklearn.preprocessing import OneHotEncoder

sales = pd.DataFrame({"city": ["Lima", "Pune"], "amount": [2.5, 4.0]})
# DataFrame.append was removed in pandas 2.0; pd.concat replaces it.
everything = sales.append({"city": "Oslo", "amount": 3.0}, ignore_index=True)
# DataFrame.map came with pandas 2.1 (applymap before it).
rounded = sales.map(lambda v: round(v) if isinstance(v, float) else v)

# OneHotEncoder(sparse_output=...) came with scikit-learn 1.2; 1.1 spells it sparse.
encoder = OneHotEncoder(sparse_output=False, handle_unknown="ignore")
cities = encoder.fit_transform(sales[["city"]])

# numpy.trapezoid only exists from numpy 2.0; numpy 1.24 calls it numpy.trapz.
total = np.trapezoid(sales["amount"].to_numpy())

# matplotlib.cm.get_cmap was removed in matplotlib 3.9.0 (3.9.1 brought it back deprecated until 3.11):
# matplotlib.colormaps[name] replaces it.
cmap = matplotlib.cm.get_cmap("viridis")
plt.bar(sales["city"], sales["amount"], color=cmap(0.5))
plt.savefig("sales.png")
