"""Writing the demo data files: UTF-8, LF line ends, so the same seed gives the same bytes."""
import csv


def write_csv(path, header, rows, sep=","):
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh, delimiter=sep, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)
