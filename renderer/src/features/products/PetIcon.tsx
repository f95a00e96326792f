/** A decorative outline of the pet's species; the pet's name is beside it. */
import './pet-icon.css';

export function PetIcon({ species }: { species: string }) {
  // Told apart by their outline: a dog's ears hang and it has a muzzle, a cat's ears
  // are pointed and it has whiskers, a rabbit's ears are long and upright.
  const paths: Record<string, string> = {
    dog: 'M15 22c0-6 4-10 9-10s9 4 9 10v6c0 7-4 12-9 12s-9-5-9-12ZM15 19c-4 0-7 4-7 11 0 3 2 5 4 3l3-4M33 19c4 0 7 4 7 11 0 3-2 5-4 3l-3-4M20 24h.01M28 24h.01M22 30h4l-2 2.5ZM24 32.5v2M21 35.5c1.5 1 4.5 1 6 0',
    cat: 'M12 30c0-7 5-12 12-12s12 5 12 12-5 10-12 10-12-3-12-10ZM13.5 24 12 8l9 7.5M34.5 24 36 8l-9 7.5M19 28h.01M29 28h.01M23 32h2l-1 1.2ZM6 31l9 1M6 35.5l9-1.5M42 31l-9 1M42 35.5l-9-1.5',
    rabbit: 'M14 32c0-7 4-12 10-12s10 5 10 12-4 9-10 9-10-2-10-9Zm6-12-3-14 6 12M28 20l3-14-6 12M21 30h.01M27 30h.01M23 35h2',
  };
  return (
    <svg className="pet-icon" viewBox="0 0 48 48" width="40" height="40" aria-hidden="true" focusable="false">
      <path d={paths[species] ?? paths.dog} fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
