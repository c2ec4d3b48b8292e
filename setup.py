"""The optional native kernels (parlour.native._kernels), a C extension built at install.

Everything else is in pyproject.toml. The extension is optional: without a C compiler, or
when it fails to build, the install goes on and parlour runs on its pure-Python engine.
``PARLOUR_NATIVE=0`` at install skips it; ``PARLOUR_NATIVE_DEBUG=1`` builds it with
AddressSanitizer and UndefinedBehaviorSanitizer (see docs/native.md).
"""

import os
import sys

from setuptools import Extension, setup

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "src", "parlour", "native"))
from sources import SOURCE_DIR, source_files, source_hash  # noqa: E402  (the hash the package checks)


def kernels() -> list[Extension]:
    if os.environ.get("PARLOUR_NATIVE", "1") == "0":
        return []
    debug = os.environ.get("PARLOUR_NATIVE_DEBUG") == "1"
    # No fused multiply-adds: the search's race must sum as the Python does, to the last bit.
    flags = ["-std=c11", "-Wall", "-Wextra", "-ffp-contract=off"]
    flags += ["-O1", "-g", "-fno-omit-frame-pointer", "-fsanitize=address,undefined",
              "-fno-sanitize-recover=undefined"] if debug else ["-O3"]
    return [Extension(
        "parlour.native._kernels",
        sources=[os.path.relpath(path) for path in source_files() if path.endswith(".c")],
        depends=[os.path.relpath(path) for path in source_files()],
        include_dirs=[os.path.relpath(SOURCE_DIR)],
        define_macros=[("PN_SOURCE_HASH", f'"{source_hash()}"')],
        extra_compile_args=flags,
        extra_link_args=["-fsanitize=address,undefined"] if debug else [],
        optional=True,
    )]


setup(ext_modules=kernels())
