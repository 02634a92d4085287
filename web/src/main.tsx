// Entry point: mounts the app into <main id="app"> (index.html loads this file only), or the
// account page the address names (a link sent by email, the forgotten-password form).
import { render } from 'preact';
import { App } from './components/App.js';
import { ConfirmEmail } from './pages/ConfirmEmail.js';
import { ForgotPassword, ResetPassword } from './pages/Password.js';
import { accountPage } from './pages/route.js';
import { AskToJoin, SignUp } from './pages/SignUp.js';
import './style.css';

function Root() {
  const page = accountPage();
  switch (page?.kind) {
    case 'join':
      return <AskToJoin linkKey={page.key} />;
    case 'register':
      return <AskToJoin />;
    case 'signup':
      return <SignUp linkKey={page.key} />;
    case 'forgot':
      return <ForgotPassword />;
    case 'reset':
      return <ResetPassword linkKey={page.key} />;
    case 'confirm-email':
      return <ConfirmEmail linkKey={page.key} />;
    default:
      return <App />;
  }
}

render(<Root />, document.getElementById('app')!);
