// The look of every road: the one description the service's PNGs (api/images/scene.py) and
// this package's SVG (svg.js) both draw from. Lengths are fractions of a cell; colours are CSS
// hex. What follows `export default` is strict JSON, which the Python side reads as such.
export default {
  "rows": 6,
  "cell": 20,
  "colors": {
    "B": "#d32f2f",
    "P": "#1565c0",
    "T": "#2e7d32",
    "red": "#d32f2f",
    "blue": "#1565c0"
  },
  "highlight": "#f9a825",
  "themes": {
    "light": {
      "background": "#ffffff",
      "grid": "#c8c8c8",
      "border": "#9e9e9e",
      "text": "#ffffff",
      "cancelled": "#37474f"
    },
    "dark": {
      "background": "#1b1d22",
      "grid": "#3b3f47",
      "border": "#5c6370",
      "text": "#ffffff",
      "cancelled": "#eceff1"
    }
  },
  "grid_width": 1,
  "ring_width": 0.14,
  "marks": {
    "bead": {
      "disc": 0.86,
      "text": 0.5
    },
    "big_road": {
      "ring": 0.78
    },
    "big_eye_boy": {
      "ring": 0.74
    },
    "small_road": {
      "disc": 0.7
    },
    "cockroach_road": {
      "slash": 0.34,
      "width": 0.12
    },
    "tie": {
      "slash": 0.42,
      "width": 0.1,
      "count_offset": 0.22,
      "count": 0.42
    },
    "pair": {
      "offset": 0.33,
      "dot": 0.24
    },
    "cancelled": {
      "offset": 0.34,
      "half": 0.12,
      "width": 0.08
    },
    "highlight": {
      "inset": 1,
      "width": 0.1,
      "least": 2
    }
  },
  "default_cols": {
    "bead_plate": 14,
    "big_road": 30,
    "big_eye_boy": 30,
    "small_road": 30,
    "cockroach_road": 30,
    "scorecard": 24
  },
  "font": {
    "family": "DejaVu Sans",
    "weight": "bold",
    "cap_height": 0.73
  }
};
