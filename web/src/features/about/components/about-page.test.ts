import { aboutFields } from './about-page';

describe('the About figures', () => {
  it('shows name, version and build to staff', () => {
    expect(aboutFields({ name: 'Encore', version: '0.1.0', build: 'abc123' })).toEqual(['name', 'version', 'build']);
  });

  it('leaves out for a fan what the server keeps for staff, rather than a dash', () => {
    expect(aboutFields({ name: 'Encore', version: null, build: null })).toEqual(['name']);
    expect(aboutFields({ name: 'Encore' })).toEqual(['name']);
  });

  it('keeps a place for each while loading', () => {
    expect(aboutFields(null)).toEqual(['name', 'version', 'build']);
  });
});
