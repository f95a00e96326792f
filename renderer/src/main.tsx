import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

// The shared styles first: each feature's own, imported beside its components, come after them.
import './styles.css';
import { App } from '@/app/App';
import { loadBreeds, seedBreedsUrl } from '@/features/breeds/breed-store';
import { seedCatalogue, startFirstView } from '@/features/journey/api';
import { readBoot } from '@/shared/boot';

// The catalogue the HTML carries is the first page's: no call for it.
const boot = readBoot();
seedCatalogue(boot.copy_url, boot.copy);
// The page's view data, already on its way (the HTML preloads it).
startFirstView(window.location.pathname + window.location.search, boot.view_url);
// The breed lists are asked for now, beside the view data, not after it arrives; a
// failure here is met again, and shown, where a page needs them.
seedBreedsUrl(boot.breeds_url);
loadBreeds().catch(() => undefined);

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
