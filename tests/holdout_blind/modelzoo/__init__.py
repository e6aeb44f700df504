from modelzoo.model import MLP, ResidualMLP  # noqa: F401
