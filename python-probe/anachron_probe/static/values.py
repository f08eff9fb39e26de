"""What a name is bound to, as far as reading the source can tell."""


class Value(object):
    """Base: something a module or class namespace binds a name to."""

    def kind(self):
        return "attribute"

    def module_attr(self):
        """``__module__`` of the object at runtime, or None when unknown / not set."""
        return None


class ModuleValue(Value):
    def __init__(self, name, library):
        self.name = name
        self.library = library  # True for a module of the library being extracted

    def kind(self):
        return "module"

    def __repr__(self):
        return "<module %s>" % self.name


class DefinedValue(Value):
    """A function or class the library's source defines: its node, where, and the ``__module__`` it is given."""

    def __init__(self, node, module, qualname, source, scope):
        self.node = node
        self.module = module  # defining module (``__module__`` unless set_module changed it)
        self.qualname = qualname
        self.source = source  # Source of the defining file
        self.scope = scope  # module state its globals (a function's) or its body's names (a class's) live in
        self.module_override = None

    def module_attr(self):
        return self.module_override or self.module

    def __repr__(self):
        return "<%s %s.%s>" % (self.kind(), self.module, self.qualname)


class FunctionValue(DefinedValue):
    """A ``def`` or ``lambda`` of the library."""

    def __init__(self, node, module, qualname, source, scope=None):
        super().__init__(node, module, qualname, source, scope)
        self.decorators = []  # decorator expressions, outermost first
        self.wrapped_signature = None  # signature the decorators impose, when they replace it
        self.method_kind = None  # 'static' | 'class' | 'property' inside a class body
        self.signature_source = "inspect"
        self.stub_module = None  # ``.pyi`` text-sourced definition: signature source 'stub'
        self.closure = None  # the names of the function body it was defined in (a dict), if any

    def kind(self):
        return "function"

    @property
    def name(self):
        return getattr(self.node, "name", "<lambda>")


class ClassValue(DefinedValue):
    def __init__(self, node, module, qualname, source, scope=None):
        super().__init__(node, module, qualname, source, scope)
        self.ns = {}  # name -> Value, class body order kept in ``order``
        self.order = []
        self.bases = []  # Values
        self.slots = []
        self.annotations = []  # (name, annotation node, default node or None) in body order
        self.decorators = []
        self.is_enum = False
        self.is_dataclass = False
        self.dataclass_kw_only = False
        self.namedtuple_fields = None  # list of field names for namedtuple-made classes
        self.doc = None
        self.synthetic_signature = None  # a signature known without __init__ (namedtuple, stub, C docs)
        self.metaclass = None

    def kind(self):
        return "class"

    @property
    def name(self):
        return self.qualname.rsplit(".", 1)[-1]

    def bind(self, name, value):
        if name not in self.ns:
            self.order.append(name)
        self.ns[name] = value


class ConstValue(Value):
    """A literal constant: int, float, complex, str, bytes, bool, None, or a tuple of those."""

    def __init__(self, value):
        self.value = value

    def __repr__(self):
        return "<const %r>" % (self.value,)


class ContainerValue(Value):
    """A list, dict or set display (not a constant for the runtime's purposes). ``items`` holds the Values of a
    list/tuple/set, ``keys`` the constant keys of a dict, when known."""

    def __init__(self, type_name, items=None, keys=None, complete=True):
        self.type_name = type_name
        self.items = items
        self.keys = keys
        self.complete = complete

    def __repr__(self):
        return "<%s>" % self.type_name


class InstanceValue(Value):
    """An instance of a class (library ClassValue or ExternalValue)."""

    def __init__(self, cls, call=None):
        self.cls = cls
        self.call = call

    def module_attr(self):
        if isinstance(self.cls, ClassValue):
            return self.cls.module_attr()
        return None

    def __repr__(self):
        return "<instance of %r>" % (self.cls,)


class ExternalValue(Value):
    """Something from outside the library, by dotted name (``math.pi``, ``functools.partial``)."""

    def __init__(self, dotted, obj_kind=None, is_constant=False):
        self.dotted = dotted
        self.obj_kind = obj_kind
        self.is_constant = is_constant

    def kind(self):
        return self.obj_kind or "attribute"

    def module_attr(self):
        return self.dotted.rsplit(".", 1)[0] if "." in self.dotted else "builtins"

    def __repr__(self):
        return "<external %s>" % self.dotted


class CompiledValue(Value):
    """A name of a compiled (C, Cython, Rust, f2py) module of the library, described by what the source records
    about it (docstrings added from Python, generator definitions, stubs, Cython source)."""

    def __init__(self, module, name, obj_kind=None, signature=None, doc=None, members=None, defined_in=None):
        self.module = module
        self.name = name
        self.obj_kind = obj_kind
        self.signature = signature
        self.doc = doc
        self.members = members  # for classes: name -> (kind, signature, doc)
        self.defined_in = defined_in

    def kind(self):
        return self.obj_kind or "attribute"

    def module_attr(self):
        if getattr(self, "no_module", False):
            return None
        return self.defined_in or self.module

    def __repr__(self):
        return "<compiled %s.%s>" % (self.module, self.name)


class UnknownValue(Value):
    """The result of something the reader does not evaluate (a call, a subscript, ...)."""

    def __init__(self, why=None, module=None, callable_hint=False):
        self.why = why
        self.module = module
        self.callable_hint = callable_hint

    def kind(self):
        return "function" if self.callable_hint else "attribute"

    def __repr__(self):
        return "<unknown %s>" % (self.why,)


class BoundMethodValue(Value):
    """``instance.method`` (numpy.random: ``normal = _rand.normal``)."""

    def __init__(self, owner, func, cls=None):
        self.owner = owner
        self.func = func
        self.cls = cls

    def kind(self):
        return "function"

    def module_attr(self):
        return self.func.module_attr() if self.func is not None else None


class PartialValue(Value):
    """``functools.partial(func, *args, **kwargs)``."""

    def __init__(self, func, n_args, kw_names):
        self.func = func
        self.n_args = n_args
        self.kw_names = kw_names

    def kind(self):
        return "function"

    def module_attr(self):
        return "functools"


def is_constant_value(v):
    if isinstance(v, ConstValue):
        return True
    if isinstance(v, ExternalValue):
        return v.is_constant
    return False
