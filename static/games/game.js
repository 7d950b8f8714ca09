// The game page's scripts: small comforts on top of server-rendered pages, which work without
// them.  Each is an ES module with no bundler (docs/TABLE.md says what the HTML carries for
// them); each adds its own listeners once, when first imported, and imports what it uses.
//
// The modules import one another by relative names ("./table.js").  In production the static
// files have hashed names, and addiction_site/static_storage.py rewrites these imports to them,
// so that a page and every module it imports come from one deploy; imports keep what each
// module needs written at its head, and let Node import the pure ones (rule.js, queue.js) to
// test them (tests/js/).
import "./table.js";      // the table: its slots, drawing, the tab stop, the focus after a swap
import "./figures.js";    // the clock, and the figures an answer of changes brings
import "./announce.js";   // the live region
import "./keys.js";       // every key, in one listener
import "./finder.js";     // the card finder: a rank or suit key held, a long press
import "./moves.js";      // instant moves and their queue (queue.js), by the rule (rule.js)
import "./drag.js";       // drag and drop
import "./demo.js";       // "Show me"
import "./motion.js";     // cards slide
import "./sound.js";      // sounds
import "./install.js";    // the service worker: the installed site's files and offline page
import "./share.js";      // a finished daily's result to share
