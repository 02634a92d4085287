// The web client a team lives in, in headless Firefox (WebDriver BiDi): test/web_team_scenario.ts.
import t from 'tap';
import { teamScenario } from './web_team_scenario.js';

await teamScenario(t, 'firefox');
