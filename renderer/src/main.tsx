import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { App } from '@/app/App';
import { seedCatalogue } from '@/features/journey/api';
import { readBoot } from '@/shared/boot';
import './styles.css';

// The catalogue the HTML carries is the first page's: no call for it.
const boot = readBoot();
seedCatalogue(boot.copy_url, boot.copy);

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
