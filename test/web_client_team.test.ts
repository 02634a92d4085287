// The web client a team lives in, in headless Chromium: test/web_team_scenario.ts.
import t from 'tap';
import { teamScenario } from './web_team_scenario.js';

await teamScenario(t, 'chromium');
