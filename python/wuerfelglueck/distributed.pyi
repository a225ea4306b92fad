"""Type stubs of wuerfelglueck.distributed."""

import os
from typing import Any, Callable, Optional, Sequence, Union

from . import DieLike, RankResult, Rules

def rank(dice: Union[str, os.PathLike, Sequence[DieLike]], client: Any, *, exact: bool = False,
         store: Union[str, os.PathLike, None] = None, games: Optional[int] = None,
         precision: Optional[float] = None, seed: int = 1, max_rolls: int = 100_000,
         threads: Optional[int] = None, track: int = 40, offset: int = 20, pieces: int = 4,
         goal_fields: int = 4, profile: str = "bwinf", rules: Optional[Rules] = None,
         tolerance: float = 1e-9, max_memory: Union[int, str, None] = None,
         progress: Optional[Callable[[int, str], Any]] = None) -> RankResult: ...
