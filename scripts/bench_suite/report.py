"""The report: the tables of run times, ratios and compile latencies, the JSON
and the chart."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any

IMPLS = ("mux", "cl", "checked", "c", "pocl", "numpy")
LABELS = {
    "mux": "mux",
    "cl": "mux from CL",
    "checked": "mux checked",
    "c": "C",
    "pocl": "PoCL",
    "numpy": "numpy",
}
RATIOS = ("mux/c", "mux/pocl", "mux/numpy", "cl/mux", "cl/pocl", "checked/mux")
"""Time of the implementation before the slash over the other's. `mux` is the
kernel compiled from MLIR, `cl` the same kernel compiled from its OpenCL C twin:
cl/mux is what the OpenCL C front-end costs, cl/pocl the same source against PoCL;
`checked` the MLIR kernel compiled in checked mode: checked/mux is what the checks
cost (docs/checked.md)."""
RATIO_LABELS = {
    "mux/c": "mux/C",
    "mux/pocl": "mux/PoCL",
    "mux/numpy": "mux/numpy",
    "cl/mux": "CL/MLIR",
    "cl/pocl": "CL/PoCL",
    "checked/mux": "checked/unchecked",
}

INSTALL_MATPLOTLIB = "pip install matplotlib (or: pip install -e '.[bench]')"


def _ms(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    ms = seconds * 1e3
    return f"{ms:.3g}" if ms < 1000 else f"{ms:.0f}"


def _time_cell(impl: dict[str, Any]) -> str:
    status = impl["status"]
    if status == "missing":
        return "-"
    if "median_s" not in impl:
        return status.upper()
    cell = f"{_ms(impl['median_s'])} [{_ms(impl['min_s'])}-{_ms(impl['max_s'])}]"
    return cell if status == "ok" else f"{cell} {status.upper()}"


def _ratio_cell(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [
        max(len(h), *(len(r[i]) for r in rows)) if rows else len(h)
        for i, h in enumerate(header)
    ]

    def line(cells: Sequence[str]) -> str:
        return (
            "| "
            + " | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True))
            + " |"
        )

    return "\n".join(
        [line(header), line(["-" * w for w in widths]), *(line(r) for r in rows)]
    )


def geomean(values: Sequence[float]) -> float | None:
    return math.exp(statistics.fmean(map(math.log, values))) if values else None


def ratios(impls: dict[str, dict[str, Any]]) -> dict[str, float | None]:
    """For each of `RATIOS`, one implementation's time over the other's, when both
    ran and passed their checks."""
    out: dict[str, float | None] = {}
    for key in RATIOS:
        one, other = (impls[name] for name in key.split("/"))
        ok = one["status"] == "ok" and other["status"] == "ok"
        out[key] = one["median_s"] / other["median_s"] if ok else None
    return out


def print_report(report: dict[str, Any]) -> None:
    rows = []
    for k in report["kernels"]:
        impls = k["impls"]
        mux_ = impls["mux"]
        rate = f"{mux_['rate']:.3g} {k['unit']}" if "rate" in mux_ else "-"
        c_rate = (
            f"{impls['c']['rate']:.3g} {k['unit']}" if "rate" in impls["c"] else "-"
        )
        rows.append(
            [
                k["title"],
                k["size"],
                *(_time_cell(impls[name]) for name in IMPLS),
                *(_ratio_cell(k["ratios"][r]) for r in RATIOS),
                rate,
                c_rate,
                str(k["reps"]),
            ]
        )
    header = [
        "kernel",
        "size",
        *(f"{LABELS[name]} ms" for name in IMPLS),
        *(RATIO_LABELS[r] for r in RATIOS),
        "mux rate",
        "C rate",
        "reps",
    ]
    print("Run time: median [min-max] in ms, interleaved repetitions.\n")
    print(markdown_table(header, rows))
    means = report["geomean"]
    print(
        "\ngeometric mean over the suite: "
        + ", ".join(
            f"{RATIO_LABELS[r]} = {_ratio_cell(means[r]['value'])} "
            f"({means[r]['kernels']} kernels)"
            for r in RATIOS
        )
    )
    problems = [
        f"  {k['name']} / {LABELS[name]}: {impl['status']}: {impl['detail']}"
        for k in report["kernels"]
        for name, impl in k["impls"].items()
        if impl["status"] in ("fail", "error")
    ]
    if problems:
        print("\nFailures (the rows are marked FAIL or ERROR):")
        print("\n".join(problems))

    latency_rows = []
    for k in report["kernels"]:
        lat = k.get("compile")
        if not lat:
            continue
        m, p = lat.get("mux", {}), lat.get("pocl", {})
        mux_cold = (
            f"{_ms(m['cold_s'])} ({_ms(m['parse_s'])} + {_ms(m['compile_s'])} + "
            f"{_ms(m['first_launch_s'])})"
            if "cold_s" in m
            else m.get("error", "-")
        )
        pocl_cells = (
            [
                f"{_ms(p['total_s'])} ({_ms(p['build_s'])} + "
                f"{_ms(p['first_launch_s'])})",
                _ms(p["relaunch_s"]),
            ]
            if "total_s" in p
            else [p.get("error", "-"), "-"]
        )
        latency_rows.append(
            [
                k["name"],
                mux_cold,
                _ms(m.get("cached_s")),
                _ms(m.get("disk_s")),
                _ms(m.get("relaunch_s")),
                *pocl_cells,
            ]
        )
    if latency_rows:
        print(
            "\nCompile latency in ms, source to first result on a small launch of the "
            "same local size:\nmux cold = parse + compile + first launch with the "
            "caches cleared; cached = new\nmux.load + first launch, caches warm; "
            "disk = the same with the kernel in the disk cache only\n(as in a new "
            "process); PoCL = build + first launch, kernel cache off.\n"
        )
        print(
            markdown_table(
                [
                    "kernel",
                    "mux cold",
                    "mux cached",
                    "mux disk",
                    "mux relaunch",
                    "PoCL cold",
                    "PoCL relaunch",
                ],
                latency_rows,
            )
        )
    for note in report["notes"]:
        print(f"\nnote: {note}")


def _bar_label(value: float) -> str:
    return f"{value:.2f}" if value < 10 else f"{value:.0f}"


def write_png(report: dict[str, Any], path: Path) -> str | None:
    """A bar chart of the ratios; the reason when it cannot be drawn."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return f"matplotlib is not installed, no chart: {INSTALL_MATPLOTLIB}"
    kernels = report["kernels"]
    names = [k["name"] for k in kernels]
    fig, ax = plt.subplots(figsize=(max(6.0, 1.3 * len(names) + 2), 4.8))
    width = 0.8 / len(RATIOS)
    for index, key in enumerate(RATIOS):
        values = [k["ratios"][key] for k in kernels]
        xs = [i + (index - (len(RATIOS) - 1) / 2) * width for i in range(len(names))]
        bars = ax.bar(
            [x for x, v in zip(xs, values, strict=True) if v is not None],
            [v for v in values if v is not None],
            width,
            label=RATIO_LABELS[key],
        )
        ax.bar_label(bars, fmt=_bar_label, fontsize=7, padding=1)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_yscale("log")
    ax.set_xticks(range(len(names)), names, rotation=20)
    ax.set_ylabel("mux time / other time (lower is better for mux)")
    mean = report["geomean"]["mux/c"]["value"]
    ax.set_title(
        "mux against C, PoCL and numpy"
        + (f" (geometric mean of mux/C: {mean:.2f})" if mean else "")
    )
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return None
