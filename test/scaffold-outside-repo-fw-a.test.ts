// A new fw-a app outside the repository: its commands run with nothing installed, its npm install
// writes nothing into the workspace (the shared tests are in scaffold-outside-repo.ts).
import { describeAppOutsideRepo, FRAMEWORKS } from "./scaffold-outside-repo.js";

describeAppOutsideRepo(FRAMEWORKS["fw-a"]);
