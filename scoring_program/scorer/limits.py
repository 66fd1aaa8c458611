"""How much a submission may hold, decided before any of it is read.

An upload is refused from sizes the file system or the zip directory gives
(``SubmittedFile.size``), so a zip bomb or a file of billions of rows costs
nothing to refuse. A zip's directory may understate a member's size: the files
that pass are read so that a member is refused as soon as it unpacks to more
than the size counted here (``SubmittedFile.within``), and no more than that is
ever held. The cap is ``max_submission_mb`` from config.yaml, or by
default 20 times the size of the reference files (a prediction is about as
large as the gold it answers), at least 16 MiB and at most 2 GiB.

>>> submission_cap(None, reference_bytes=1_000_000) // 2**20
19
>>> submission_cap(None, reference_bytes=10) // 2**20, submission_cap(5, reference_bytes=10) // 2**20
(16, 5)
"""
import os

from .errors import SubmissionError, clip
from .problems import Message

TOO_LARGE = Message(
    "submission.too_large", "the submission holds {total} uncompressed ({name}: {size}), more than the {cap} this "
    "phase accepts; check that you upload the prediction file for the test set only.",
    "提交文件解压后共 {total}（{name}：{size}），超过本阶段允许的 {cap}；请确认只上传测试集的预测文件。")
FACTOR = 20
FLOOR = 16 * 2 ** 20
CEILING = 2 * 2 ** 30
MB = 2 ** 20


def submission_cap(max_mb, reference_bytes):
    """The largest total (uncompressed) size of the submitted files, in bytes."""
    if max_mb is not None:
        return int(max_mb * MB)
    return int(min(CEILING, max(FLOOR, FACTOR * reference_bytes)))


def reference_bytes(cfg, slots):
    """Total size of the reference files named in config.yaml (the gold and what goes with it)."""
    total = 0
    for slot, name in cfg.files.items():
        if slot in slots:
            continue
        try:
            total += os.path.getsize(cfg.path(slot))
        except OSError:
            pass  # a missing reference file is reported when the family reads it
    return total


def check_size(files, cap):
    """Refuse the submission when its chosen files hold more than ``cap`` bytes; else the same files, read so that
    none gives more than the size counted here (``SubmittedFile.within``: a zip's directory may lie)."""
    chosen = [f for f in files.values() if f is not None]
    total = sum(f.size for f in chosen)
    if total > cap:
        largest = max(chosen, key=lambda f: f.size)
        raise SubmissionError(TOO_LARGE(total=_mb(total), name=clip(largest.name, 80), size=_mb(largest.size),
                                        cap=_mb(cap)))
    return {slot: None if f is None else f.within(cap) for slot, f in files.items()}


def _mb(n):
    return "%.1f MB" % (n / MB) if n < 10 * 2 ** 30 else "%.1f GB" % (n / 2 ** 30)
