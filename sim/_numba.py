"""Numba options for every compiled kernel, and the state handles' plumbing, in one place.

Every kernel keeps its compiled machine code on disk (numba's ``cache=True``), so only
the first process on a machine pays the compilation. ``nogil=True`` lets threads run
kernels side by side. Set ``NUMBA_DISABLE_JIT=1`` to run the same code as plain
Python (``.ci/run`` runs the rules tests so). Set ``NUMBA_BOUNDSCHECK=1`` (a build of
its own in the cache, :mod:`sim._cache`) for a build where an index past an array's
end raises ``IndexError`` instead of corrupting memory (tests/test_large_deck_fuzz.py
runs the large-deck tests so).

Kernels take the game state and the deck as *views* (:class:`View`): a bare pointer
to a buffer laid out as the payload of a StructRef whose array fields are borrowed,
i.e. point at numpy buffers that a Python object owns and carry no reference count.
Measured (tests in the commit log): a namedtuple of 28 arrays costs ~300 ns per call
in reference counts; a StructRef costs an atomic reference-count update per call and
per field read (~19 ns for a two-field helper, half of all engine time); a view costs
~0.6 ns. Kernels read fields (``st.hand``) and write array elements; they never
rebind a field, and the view's field types come from ``typeof`` of the arrays, never
literal types.
"""

import operator

import numba
import numpy as np
from llvmlite import ir
from numba import njit, typeof, types
from numba.core import cgutils, imputils
from numba.core.datamodel import default_manager as _data_models
from numba.core.registry import cpu_target
from numba.core.typing.templates import AttributeTemplate
from numba.extending import (
    NativeValue,
    infer_getattr,
    intrinsic,
    lower_getattr_generic,
    models,
    overload,
    register_model,
    typeof_impl,
    unbox,
)
from numba.np import arrayobj

from sim import _cache, _patches

_cache.use_stamped_cache_dir()  # before any kernel is defined (sim._cache)
_patches.install()

KERNEL_OPTIONS = {"nogil": True, "forceinline": False}
# 0 as a numpy int, for a count that a loop raises and passes to a kernel: numba types
# a variable set to a Python 0 as a literal until the loop's other assignments reach
# it, and compiles the kernel it is passed to once for that literal, once for int64.
ZERO = np.int64(0)


def _compiled(func, **options):
    """``func`` compiled in nopython mode and cached on disk, with :data:`KERNEL_OPTIONS`
    and ``options``; as it is under ``NUMBA_DISABLE_JIT=1``."""
    return func if numba.config.DISABLE_JIT else njit(cache=True, **(KERNEL_OPTIONS | options))(func)


def kernel(func):
    """Compile ``func`` in nopython mode with the project's options."""
    return _compiled(func)


def hot_kernel(func):
    """Like :func:`kernel`, and inlined by LLVM into its callers (numba's
    ``forceinline``: the ``alwaysinline`` attribute).

    Numba calls one dispatcher's code from another through its calling convention
    and never inlines it, so the per-turn path paid a call, and reloaded the state's
    fields, at every small kernel. The kernels of that path are hot kernels:
    ``revachol bench``'s ability-free 4-player ``random`` line went from about 240
    to about 170 ns/turn, for 2 s more cold compile. Every other kernel sets
    ``forceinline=False`` explicitly, because numba lets a kernel compiled while a
    hot kernel is typed inherit the flag."""
    return _compiled(func, forceinline=True)


def inline_kernel(func):
    """Like :func:`kernel`, and inlined into its callers at the numba IR level, so
    that it gets no LLVM module of its own.

    Numba optimises and generates machine code for each kernel's module together with
    the modules of every kernel it calls, then does it all again in each caller. The
    game loop's kernels that have one caller (``play_game``, ``take_turn``,
    ``play_turn``, ``setup_game``, ``write_record``, ``write_closeness``, ``on_placed``,
    ``swap``, ``place_morale``, ``suffer_penalty``, ``greedy_choose``) are inline kernels: the
    cold compile of a ``greedy`` run went from about 46 to about 35 s. Inlining a
    kernel with several callers, or the completion kernels, made it slower."""
    return _compiled(func, inline="always")


@hot_kernel
def copy_into(dst, src):
    """``dst[...] = src`` for two arrays of the same shape, element by element in C
    order. Numba's slice assignment from an array compiles a formatter for its
    shape-mismatch message (``raise_with_shape_context``: about 2 s of cold compile);
    this loop compiles none. The shapes are not checked: callers pass equal ones."""
    target = dst.flat
    for k, value in enumerate(src.flat):
        target[k] = value


def _fields_copier(fields: tuple[str, ...]):
    """A plain function ``copy(src, dst)`` that copies each field of ``fields`` from
    one view (or NamedTuple of arrays) to another with :func:`copy_into`."""
    lines = ["def copy(src, dst):"] + [f"    copy_into(dst.{name}, src.{name})" for name in fields]
    scope = {"copy_into": copy_into}
    exec("\n".join(lines), scope)  # noqa: S102 (source built from field names only)
    return scope["copy"]


def fields_copy(fields: tuple[str, ...]):
    """``copy(src, dst)``: copy the arrays named ``fields`` of one state to another of
    the same shapes, element by element (:func:`copy_into`). The function is built
    from the names, so a field added to a part of the state is copied without a line
    written for it; compiled into each kernel that calls it (numba's ``overload``),
    which keeps it out of numba's cache as a kernel of its own."""
    copy = _fields_copier(fields)
    if not numba.config.DISABLE_JIT:
        overload(copy, jit_options={"nogil": True})(lambda src, dst: _fields_copier(fields))
    return copy


class ViewType(types.Type):
    """Numba type of a :class:`View`: a pointer to the payload of a ``ref_type``
    StructRef, whose fields it exposes. Three kinds, by ``visible`` and ``writable``:

    * the engine's view (``visible`` None): every field, writable elements;
    * a *narrowed view* (``writable`` a tuple, :func:`view_of`): a part of the state
      (:data:`sim.state.PARTS`) or a built-in bot's seat view
      (:mod:`sim.bots.observation`), only the fields named in ``visible``, read-only
      but for those in ``writable``, indexed as the engine indexes
      (:class:`EngineArray`);
    * a user bot's observation (``writable`` None, :mod:`sim.bots.user`): only the
      fields in ``visible``, all read-only, with Python's negative indices
      (:class:`BorrowedArray`).

    Reading a field outside ``visible`` or writing a read-only one is a compile error.
    A state's view also carries its policy set (``policies``, sorted policy ids,
    :mod:`sim.bots.ids`): kernels are compiled for the policies of the set only."""

    def __init__(self, ref_type, visible: tuple[str, ...] | None = None, policies: tuple[int, ...] | None = None,
                 writable: tuple[str, ...] | None = None):  # fmt: skip
        self.ref_type = ref_type
        self.visible = visible
        self.policies = policies
        self.writable = writable
        kind = "View" if visible is None else "Observation" if writable is None else "NarrowView"
        with_policies = "" if policies is None else f", policies {list(policies)}"
        with_writable = "" if writable is None else f", writable {writable}"
        super().__init__(name=f"{kind}({ref_type}, {visible}{with_writable}{with_policies})")


register_model(ViewType)(models.OpaqueModel)


class BorrowedArray(types.Array):
    """Numba type of an array field read through a view: a numpy array whose buffer a
    Python object owns, so compiled code keeps no reference count on it (no
    ``NRT_incref``/``NRT_decref`` call at each read, which cost a third of the
    engine's time). Slices and copies of it are ordinary arrays."""

    label = "borrowed"  # the type's name, which names its kernels' symbols

    def __init__(self, dtype, ndim, layout, readonly=False, aligned=True):
        name = f"{self.label} {'readonly ' if readonly else ''}array({dtype}, {ndim}d, {layout})"
        super().__init__(dtype, ndim, layout, readonly=readonly, aligned=aligned, name=name)


@register_model(BorrowedArray)
class _BorrowedArrayModel(models.StructModel):
    """:class:`numba.core.datamodel.models.ArrayModel`'s layout with a plain pointer
    for the meminfo, so that numba emits no reference counting for it."""

    def __init__(self, dmm, fe_type):
        members = [
            ("meminfo", types.voidptr),
            ("parent", types.pyobject),
            ("nitems", types.intp),
            ("itemsize", types.intp),
            ("data", types.CPointer(fe_type.dtype)),
            ("shape", types.UniTuple(types.intp, fe_type.ndim)),
            ("strides", types.UniTuple(types.intp, fe_type.ndim)),
        ]
        super().__init__(dmm, fe_type, members)


class EngineArray(BorrowedArray):
    """Numba type of an array field read through an engine kernel's view (a
    :class:`BorrowedArray`) whose elements are read and written without Python's
    negative-index wraparound: ``a[i, j]`` with integer indices is element ``(i, j)``
    for ``0 <= i, j`` only. Numba's default adds ``shape`` to a negative index, a
    compare and a select at every access; without them ``revachol bench``'s
    ability-free ``random`` line runs about 10% faster and ``greedy`` 8%, with 3 s
    less cold compile. The engine never indexes its state or deck with a negative
    number (``NUMBA_BOUNDSCHECK=1`` builds raise IndexError for one). A user bot's
    observation keeps the wraparound (:class:`BorrowedArray`); so does the engine
    without the ``engine_index`` patch (:mod:`sim._patches`)."""

    label = "engine"


register_model(EngineArray)(_BorrowedArrayModel)


def _element_pointer(context, builder, array_type, array, index_types, indices):
    """Pointer to the element of ``array`` at integer ``indices``, without wraparound;
    bounds-checked in a ``NUMBA_BOUNDSCHECK=1`` build."""
    proxy = arrayobj.make_array(array_type)(context, builder, array)
    positions = [context.cast(builder, i, t, types.intp) for t, i in zip(index_types, indices)]
    return cgutils.get_item_pointer(context, builder, array_type, proxy, positions, wraparound=False,
                                    boundscheck=context.enable_boundscheck)  # fmt: skip


def _element_index(array_type, index_type, index, builder):
    """(index types, index values) when ``index`` names one element of the array
    (one integer per dimension), else None."""
    tuple_index = isinstance(index_type, types.BaseTuple)
    index_types = tuple(index_type.types) if tuple_index else (index_type,)
    if len(index_types) != array_type.ndim or not all(isinstance(t, types.Integer) for t in index_types):
        return None
    return index_types, (cgutils.unpack_tuple(builder, index, len(index_types)) if tuple_index else (index,))


def _engine_getitem(context, builder, sig, args):
    array_type, index_type = sig.args
    element = _element_index(array_type, index_type, args[1], builder)
    if element is None:  # a slice, a sub-array, fancy indexing: numba's own
        if isinstance(index_type, types.BaseTuple):
            return arrayobj.getitem_array_tuple(context, builder, sig, args)
        return arrayobj.getitem_arraynd_intp(context, builder, sig, args)
    pointer = _element_pointer(context, builder, array_type, args[0], *element)
    return arrayobj.load_item(context, builder, array_type, pointer)


def _engine_setitem(context, builder, sig, args):
    array_type, index_type, value_type = sig.args
    element = _element_index(array_type, index_type, args[1], builder)
    if element is None or isinstance(value_type, types.Array):
        return arrayobj.setitem_array(context, builder, sig, args)
    value = context.cast(builder, args[2], value_type, array_type.dtype)
    pointer = _element_pointer(context, builder, array_type, args[0], *element)
    arrayobj.store_item(context, builder, array_type, value, pointer)


if _patches.on("engine_index"):  # else numba's own indexing, with wraparound
    imputils.lower_builtin(operator.getitem, EngineArray, types.Integer)(_engine_getitem)
    imputils.lower_builtin(operator.getitem, EngineArray, types.BaseTuple)(_engine_getitem)
    imputils.lower_builtin(operator.setitem, EngineArray, types.Any, types.Any)(_engine_setitem)


def _borrowed(field, typ, attr):
    """Field ``attr`` of view type ``typ`` (:class:`ViewType`'s three kinds) as a
    borrowed array: an :class:`EngineArray` for the engine and a narrowed view,
    writable for the engine and a narrowed view's ``writable`` fields; a read-only
    :class:`BorrowedArray` for a user bot's observation."""
    if not isinstance(field, types.Array):
        return field
    user = typ.visible is not None and typ.writable is None
    kind = BorrowedArray if user else EngineArray
    readonly = user or (typ.writable is not None and attr not in typ.writable) or not field.mutable
    return kind(field.dtype, field.ndim, field.layout, readonly=readonly, aligned=field.aligned)


@infer_getattr
class _ViewAttributes(AttributeTemplate):
    key = ViewType

    def generic_resolve(self, typ, attr):
        field = typ.ref_type.field_dict.get(attr)
        if field is None or (typ.visible is not None and attr not in typ.visible):
            return None
        return _borrowed(field, typ, attr)


@lower_getattr_generic(ViewType)
def view_field(context, builder, typ, value, attr):
    """The LLVM value of field ``attr`` of the view ``value`` (a borrowed array).

    The load is marked ``!invariant.load`` (LLVM Language Reference, "load"
    instruction): a view's payload never changes while kernels run (:class:`View`).
    Without the mark, every store to an array element could, for all LLVM knows, have
    changed the payload, so each field read after one loaded the array's pointer and
    shape again. With it, ``revachol bench``'s ability-free 4-player ``random`` line
    went from about 88,000 to 94,000 games/s (issue 14)."""
    data_type = typ.ref_type.get_data_type()
    payload = context.data_model_manager[data_type].get_value_type()
    data = cgutils.create_struct_proxy(data_type)(context, builder, ref=builder.bitcast(value, payload.as_pointer()))
    value = builder.load(data._get_ptr_by_name(attr))
    value.set_metadata("invariant.load", builder.module.add_metadata([]))
    if isinstance(typ.ref_type.field_dict[attr], types.Array):
        return value  # a BorrowedArray: no reference count
    return imputils.impl_ret_borrowed(context, builder, typ.ref_type.field_dict[attr], value)


def _array_struct(array: np.ndarray) -> tuple[int, ...]:
    """The words of numba's array struct (``ArrayModel``: meminfo, parent, nitems,
    itemsize, data, shape, strides) for ``array``, borrowed: no meminfo, no parent."""
    return (0, 0, array.size, array.itemsize, array.ctypes.data, *array.shape, *array.strides)


class View:
    """What Python passes to kernels for a NamedTuple of arrays (the state, the deck).

    It holds the owning NamedTuple, so the buffers live as long as the view, and the
    *payload* that kernels point at: an int64 buffer laid out as numba lays out the
    payload of a ``ref_class`` StructRef over the arrays (one array struct per field,
    in field order, every member 8 bytes), each struct borrowed, then one word more:
    the address of a *linked* view's payload (``link``, held so that it lives as long
    as this one), or 0 (:func:`linked_view`). Building it in Python
    compiles nothing: numba's StructRef constructor cost about 1.5 s of every cold
    compile, and 0.7 s in each new process before it was cached. The payload is never
    written once built, which lets kernels mark their reads of it invariant
    (:func:`view_field`). A subclass may give its numba type a policy set
    (:meth:`policies`).

    Raises
    ------
    RuntimeError
        When the payload's size differs from numba's layout of it (a numba whose
        array struct changed): kernels would read past the buffer.
    """

    def __init__(self, ref_class, owner, link: "View | None" = None):
        self.owner = owner
        self.link = link
        self.ref_type = ref_class([(name, typeof(array)) for name, array in zip(owner._fields, owner)])
        words = [word for array in owner for word in _array_struct(array)]
        self.payload = np.array([*words, 0 if link is None else link.address], np.int64)
        self.address = self.payload.ctypes.data
        payload_type = _data_models[self.ref_type.get_data_type()].get_value_type()
        expected = cpu_target.target_context.get_abi_sizeof(payload_type) + 8
        if self.payload.nbytes != expected:  # not an assert, which python -O drops
            raise RuntimeError(f"a kernel view's payload holds {self.payload.nbytes} bytes, numba's {expected}")

    def policies(self) -> tuple[int, ...] | None:
        """The policy set of the view's numba type; None: no policy set."""
        return None


def _link_word(context, builder, view_type, view):
    """The LLVM int64 after the fields of the payload that ``view`` points at: the
    linked view's address, or 0 (:class:`View`)."""
    payload = context.data_model_manager[view_type.ref_type.get_data_type()].get_value_type()
    words = builder.bitcast(view, ir.IntType(64).as_pointer())
    return builder.load(builder.gep(words, [ir.Constant(ir.IntType(64), context.get_abi_sizeof(payload) // 8)]))


def linked_view(policies: tuple[int, ...] | None):
    """``(is_linked, linked)``: ``is_linked(st)`` whether the engine's view ``st``
    links a second state's view (:class:`View`), and ``linked(st)`` that view, typed
    with policy set ``policies`` (its kernels are compiled for those policies, not
    ``st``'s), or with ``st``'s own set when ``policies`` is None. Only a full view links one; from a narrowed view neither compiles.
    ``linked(st)`` of a view that links none is a null pointer: callers ask
    ``is_linked`` first. In plain Python (``NUMBA_DISABLE_JIT=1``) the link is the
    ``link`` attribute of the state that :func:`sim.state.kernel_state` returns."""

    @intrinsic
    def link_address(typingctx, st):
        if not isinstance(st, ViewType) or st.visible is not None:
            return None

        def codegen(context, builder, signature, args):
            return _link_word(context, builder, st, args[0])

        return types.int64(st), codegen

    @intrinsic
    def link_of(typingctx, st):
        if not isinstance(st, ViewType) or st.visible is not None:
            return None
        linked_type = ViewType(st.ref_type, None, st.policies if policies is None else policies, None)

        def codegen(context, builder, signature, args):
            return builder.inttoptr(_link_word(context, builder, st, args[0]), context.get_value_type(linked_type))

        return linked_type(st), codegen

    def is_linked(st):
        return getattr(st, "link", None) is not None

    def linked(st):
        return st.link

    if not numba.config.DISABLE_JIT:
        overload(is_linked, jit_options={"nogil": True})(lambda st: lambda st: link_address(st) != 0)
        overload(linked, jit_options={"nogil": True})(lambda st: lambda st: link_of(st))
    return is_linked, linked


@intrinsic
def call_c(typingctx, address, a, b, c, d, e):
    """Call the C callback (a numba ``cfunc``) at machine address ``address`` with
    five arguments, returning its int64. The call goes through the pointer, so none of
    the callback's code is linked into the caller: numba optimises each kernel's code
    again with the code of every kernel it calls (:func:`inline_kernel`), and a large
    callback called from the turn's kernels would be optimised again in each of them.
    ``address`` must be that of a callback compiled for these argument types (views
    are pointers, so any view type passes one); 0 crashes: callers check it."""

    def codegen(context, builder, signature, args):
        argument_types = [context.get_value_type(t) for t in signature.args[1:]]
        function = builder.inttoptr(args[0], ir.FunctionType(ir.IntType(64), argument_types).as_pointer())
        return builder.call(function, args[1:])

    return types.int64(address, a, b, c, d, e), codegen


def view_of(visible: tuple[str, ...], writable: tuple[str, ...]):
    """``view(st)``: the state's view ``st`` retyped as a :class:`ViewType` that
    shows the fields ``visible`` only and writes ``writable`` only (a subset of
    them): the same pointer, so it costs nothing at run time. Reading another field
    through it, or writing a read-only one, is a compile error. The state's parts
    (:data:`sim.state.PARTS`) and a built-in bot's seat view
    (:mod:`sim.bots.observation`) are views of this kind. A view only narrows: from
    a view that already hides a field of ``visible``, or reads one of ``writable``
    only, ``view`` does not compile. In plain Python (``NUMBA_DISABLE_JIT=1``) it
    returns ``st`` itself.
    """

    @intrinsic
    def retype(typingctx, st):
        if not isinstance(st, ViewType):
            return None
        if st.visible is not None and not (set(visible) <= set(st.visible) and set(writable) <= set(st.writable or ())):
            return None  # it would widen a narrower view

        def codegen(context, builder, signature, args):
            return args[0]

        return ViewType(st.ref_type, visible, None, writable)(st), codegen

    def view(st):
        return st

    if not numba.config.DISABLE_JIT:
        overload(view, jit_options={"nogil": True})(lambda st: lambda st: retype(st))
    return view


@typeof_impl.register(View)
def _typeof_view(value, context):
    return ViewType(value.ref_type, None, value.policies())


@unbox(ViewType)
def _unbox_view(typ, obj, c):
    address = c.pyapi.object_getattr_string(obj, "address")
    pointer = c.pyapi.long_as_voidptr(address)
    c.pyapi.decref(address)
    return NativeValue(pointer)
