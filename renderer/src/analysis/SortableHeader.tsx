// A column header of the analysis tables: sortable ones are buttons showing the current direction.
export interface SortableHeaderProps<S extends string> {
  label: string;
  /** The sort key of the column, or null when it cannot be sorted. */
  sort: S | null;
  current: { column: S; descending: boolean };
  onSort(column: S): void;
  className?: string;
}

export function SortableHeader<S extends string>({ label, sort, current, onSort, className }: SortableHeaderProps<S>) {
  const active = sort !== null && current.column === sort;
  return (
    <th className={className} aria-sort={active ? (current.descending ? 'descending' : 'ascending') : undefined}>
      {sort !== null ? (
        <button type="button" className="sort-btn" data-sort={sort} onClick={() => onSort(sort)}>
          {label}
          <span className="sort-mark" aria-hidden="true">
            {active ? (current.descending ? '▼' : '▲') : ''}
          </span>
        </button>
      ) : (
        label
      )}
    </th>
  );
}
