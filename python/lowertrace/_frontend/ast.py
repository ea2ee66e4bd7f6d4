"""The wrapper of Triton's ASTSource.make_ir (front end: Python AST -> TTIR).

It lives in a file named ast.py on purpose: Triton's compile() passes a
front-end exception through filter_traceback(), which drops frames of files
ending in "/ast.py" (and code_generator.py) unless TRITON_FRONT_END_DEBUGGING
is on. So the user's traceback is the same with tracing as without."""


def wrap_make_ir(orig, on_source, on_error):
    def make_ir(self, *a, **kw):
        on_source(self)
        try:
            return orig(self, *a, **kw)
        except Exception as e:
            on_error(self, e)
            raise

    make_ir.__wrapped__ = orig
    return make_ir
