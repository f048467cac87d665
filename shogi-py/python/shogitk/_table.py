"""``Table``: the rows of ``shogitk.stats``, list-like, with optional pandas and Arrow exports."""

from typing import Any, Dict, Iterator, List, Sequence, Tuple, Union, overload


class Table:
    """Rows with named columns (those of ``shogi stats``), in input order.

    A sequence of rows: ``len(t)``, ``t[i]`` (a dict), iteration (dicts), ``t["col"]`` (the
    column's values as a list). ``to_pandas()`` and ``to_arrow()`` build a DataFrame or a
    ``pyarrow.Table`` when pandas / pyarrow are installed (neither is required).
    """

    __slots__ = ("_columns", "_rows")

    def __init__(self, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        self._columns = list(columns)
        self._rows = [tuple(r) for r in rows]
        for r in self._rows:
            if len(r) != len(self._columns):
                raise ValueError(f"a row of {len(r)} values for {len(self._columns)} columns")

    @property
    def columns(self) -> List[str]:
        """The column names, in order."""
        return list(self._columns)

    @property
    def rows(self) -> List[Tuple[Any, ...]]:
        """The rows as tuples, in column order."""
        return list(self._rows)

    def __len__(self) -> int:
        return len(self._rows)

    def __iter__(self) -> Iterator[Dict[str, Any]]:
        cols = self._columns
        for r in self._rows:
            yield dict(zip(cols, r))

    @overload
    def __getitem__(self, key: int) -> Dict[str, Any]: ...
    @overload
    def __getitem__(self, key: str) -> List[Any]: ...
    @overload
    def __getitem__(self, key: slice) -> "Table": ...
    def __getitem__(self, key: Union[int, str, slice]) -> Any:
        if isinstance(key, str):
            try:
                i = self._columns.index(key)
            except ValueError:
                raise KeyError(key) from None
            return [r[i] for r in self._rows]
        if isinstance(key, slice):
            return Table(self._columns, self._rows[key])
        return dict(zip(self._columns, self._rows[key]))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Table):
            return NotImplemented
        return self._columns == other._columns and self._rows == other._rows

    def __repr__(self) -> str:
        return f"<Table {len(self._rows)} rows x {len(self._columns)} columns>"

    def to_pandas(self) -> Any:
        """A ``pandas.DataFrame`` of the rows (ImportError when pandas is not installed)."""
        try:
            import pandas as pd
        except ImportError as e:
            raise ImportError(
                "Table.to_pandas() needs pandas, which is not installed: pip install pandas"
            ) from e
        return pd.DataFrame.from_records(self._rows, columns=self._columns)

    def to_arrow(self) -> Any:
        """A ``pyarrow.Table`` of the rows (ImportError when pyarrow is not installed)."""
        try:
            import pyarrow as pa
        except ImportError as e:
            raise ImportError(
                "Table.to_arrow() needs pyarrow, which is not installed: pip install pyarrow"
            ) from e
        data = {c: [r[i] for r in self._rows] for i, c in enumerate(self._columns)}
        return pa.table(data)
