"""tela_threadpoolctl -- lets threadpoolctl see and limit tela's thread team.

threadpoolctl (https://github.com/joblib/threadpoolctl) finds the BLAS and OpenMP
libraries loaded in a Python process and reads or limits their thread counts; scikit-learn,
joblib and others call it to avoid oversubscription. It knows OpenBLAS, MKL, BLIS,
FlexiBLAS and the OpenMP runtimes, not tela. Importing this module registers a controller
for libtela, so that in a process where libtela.so.0 is loaded (linked, dlopen'ed, or
preloaded in front of NumPy's BLAS with LD_PRELOAD):

- ``threadpoolctl.threadpool_info()`` lists it: user_api "blas", internal_api "tela",
  prefix "libtela", its filepath, version (``tela_version()``) and num_threads
  (``tela_get_num_threads()``: the process default width, which starts from
  TELA_NUM_THREADS, else OMP_NUM_THREADS, else the affinity mask);
- ``threadpool_limits(n)``, ``threadpool_limits(n, user_api="blas")``,
  ``threadpool_limits({"libtela": n})`` and ``ThreadpoolController().limit(...)`` set that
  width with ``tela_set_num_threads(n)`` and restore the one read before on leaving.

The library is reached through ctypes on the copy already loaded (threadpoolctl opens it
with RTLD_NOLOAD); nothing is loaded here. Without libtela in the process, importing this
module changes nothing visible: threadpool_info() simply has no tela entry.

Use::

    PYTHONPATH=/path/to/tela/python python3 ...      # from the source tree, or
    PYTHONPATH=<prefix>/share/tela/python python3 ...  # after `cmake --install`

    import tela_threadpoolctl  # once, anywhere before threadpoolctl is asked
    from threadpoolctl import threadpool_limits
    with threadpool_limits(1, user_api="blas"):
        ...  # tela (and any other BLAS) runs on one thread here

threadpoolctl >= 3.2 has ``threadpoolctl.register(controller_class)``, used when present.
3.0 and 3.1 (Debian 12's python3-threadpoolctl) have no such call: there the controller is
added to the module's own table (``_SUPPORTED_LIBRARIES``, the class by name in its globals,
and the ``_ALL_*`` lists the parameter checks read). Importing the module again, or a second
copy of it, registers nothing more. Before 3.3, threadpoolctl matches libraries by filename
prefix alone, so a foreign "libtela*" would be listed with version and num_threads None;
3.3 and later also require one of ``check_symbols``.

Only the process default is touched: a thread that set its own width with
``tela_set_num_threads_local`` keeps it, and on that thread num_threads reports it.
"""

import ctypes
import warnings

import threadpoolctl

__all__ = ["TelaController"]

if not hasattr(threadpoolctl, "LibController"):
    raise ImportError(
        "tela_threadpoolctl needs threadpoolctl 3.0 or later, found "
        + getattr(threadpoolctl, "__version__", "an older one")
    )

_INTERNAL_API = "tela"
_PREFIX = "libtela"


class TelaController(threadpoolctl.LibController):
    """threadpoolctl's view of libtela: its version and process default width."""

    user_api = "blas"
    internal_api = _INTERNAL_API
    filename_prefixes = (_PREFIX,)
    # threadpoolctl >= 3.3 keeps a library whose name matches only if one of these exists.
    check_symbols = ("tela_version", "tela_get_num_threads", "tela_set_num_threads")

    def _function(self, name, restype, argtypes):
        """The library's function `name` with its C types set, or None if it has none."""
        # The ctypes handle threadpoolctl opened: `dynlib` from 3.2 on, `_dynlib` before.
        dynlib = getattr(self, "dynlib", None) or getattr(self, "_dynlib", None)
        function = getattr(dynlib, name, None) if dynlib is not None else None
        if function is not None:
            function.restype = restype
            function.argtypes = argtypes
        return function

    def get_version(self):
        version = self._function("tela_version", ctypes.c_char_p, [])
        return version().decode("ascii") if version is not None else None

    def get_num_threads(self):
        get_width = self._function("tela_get_num_threads", ctypes.c_int, [])
        return get_width() if get_width is not None else None

    def set_num_threads(self, num_threads):
        set_width = self._function("tela_set_num_threads", None, [ctypes.c_int])
        if set_width is None or num_threads is None:
            return
        if int(num_threads) < 1:
            # tela_set_num_threads would refuse it through tela's error hook. Not an exception:
            # threadpoolctl sets library after library and would leave the earlier ones set.
            warnings.warn(f"tela: num_threads must be at least 1, not {num_threads}: "
                          "tela's width is left as it is", RuntimeWarning, stacklevel=2)
            return
        set_width(int(num_threads))


def _registered():
    """True if a tela controller (this module's or an earlier copy's) is registered."""
    controllers = getattr(threadpoolctl, "_ALL_CONTROLLERS", None)
    if controllers is not None:  # 3.2 and later
        return any(getattr(c, "internal_api", None) == _INTERNAL_API for c in controllers)
    return "TelaController" in getattr(threadpoolctl, "_SUPPORTED_LIBRARIES", {})


def _register():
    if _registered():
        return
    if hasattr(threadpoolctl, "register"):  # 3.2 and later
        threadpoolctl.register(TelaController)
        return
    # 3.0 and 3.1: ThreadpoolController._make_controller_from_path walks
    # _SUPPORTED_LIBRARIES and instantiates globals()[name]; threadpool_limits checks a
    # user_api or a prefix given as a limit against _ALL_USER_APIS and _ALL_PREFIXES.
    threadpoolctl.TelaController = TelaController
    threadpoolctl._SUPPORTED_LIBRARIES["TelaController"] = {
        "user_api": TelaController.user_api,
        "internal_api": _INTERNAL_API,
        "filename_prefixes": TelaController.filename_prefixes,
        "check_symbols": TelaController.check_symbols,
    }
    for name, value in (
        ("_ALL_USER_APIS", TelaController.user_api),
        ("_ALL_INTERNAL_APIS", _INTERNAL_API),
        ("_ALL_PREFIXES", _PREFIX),
        ("_ALL_BLAS_LIBRARIES", _INTERNAL_API),
    ):
        values = getattr(threadpoolctl, name, None)
        if isinstance(values, list) and value not in values:
            values.append(value)


_register()
