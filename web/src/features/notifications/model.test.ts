import { listParamsQuery, pageCount, readListParams } from './model';

describe('notifications page place', () => {
  it('reads the page and filter from the address', () => {
    expect(readListParams(new URLSearchParams('page=2&filter=unread'))).toEqual({ page: 2, filter: 'unread' });
    expect(readListParams(new URLSearchParams('filter=read'))).toEqual({ page: 1, filter: 'read' });
  });

  it('falls back to page 1 of all for anything odd', () => {
    expect(readListParams(new URLSearchParams('page=-3&filter=spam'))).toEqual({ page: 1, filter: 'all' });
    expect(readListParams(new URLSearchParams('page=1.5'))).toEqual({ page: 1, filter: 'all' });
    expect(readListParams(new URLSearchParams(''))).toEqual({ page: 1, filter: 'all' });
  });

  it('leaves the defaults out of the address', () => {
    expect(listParamsQuery({ page: 1, filter: 'all' })).toEqual({});
    expect(listParamsQuery({ page: 3, filter: 'read' })).toEqual({ page: '3', filter: 'read' });
  });

  it('counts pages, at least one', () => {
    expect(pageCount(0, 20)).toBe(1);
    expect(pageCount(20, 20)).toBe(1);
    expect(pageCount(21, 20)).toBe(2);
  });
});
