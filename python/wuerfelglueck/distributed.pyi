"""Type stubs of wuerfelglueck.distributed."""

import os
from typing import Any, Callable, Optional, Sequence, Union

from . import DieLike, RankResult, Rules

MEMORY: str

def rank(dice: Union[str, os.PathLike, Sequence[DieLike]], client: Any, *, exact: bool = False,
         store: Union[str, os.PathLike, None] = None, games: Optional[int] = None,
         precision: Optional[float] = None, seed: int = 1, max_rolls: int = 100_000,
         threads: Optional[int] = None, track: Optional[int] = None,
         offset: Optional[int] = None, pieces: Optional[int] = None,
         goal_fields: Optional[int] = None, profile: Optional[str] = None,
         rules: Optional[Rules] = None, tolerance: float = 1e-9,
         max_memory: Union[int, str, None] = None, memory_constrained: bool = True,
         values: Optional[Sequence[Union[str, os.PathLike]]] = None,
         progress: Optional[Callable[[int, str], Any]] = None) -> RankResult: ...
