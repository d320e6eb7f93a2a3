"use strict";
(() => {
  // src/api.ts
  var ApiFailure = class extends Error {
    constructor(code, params, message, status) {
      super(message);
      this.code = code;
      this.params = params;
      this.status = status;
    }
  };
  async function api(method, path, body, headers = {}) {
    const init = { method, headers: { ...headers }, credentials: "same-origin" };
    if (body !== void 0) {
      if (body instanceof Blob || body instanceof ArrayBuffer) {
        init.headers["Content-Type"] = "application/octet-stream";
        init.body = body;
      } else {
        init.headers["Content-Type"] = "application/json";
        init.body = JSON.stringify(body);
      }
    }
    let response;
    try {
      response = await fetch(path, init);
    } catch (e) {
      throw new ApiFailure("network", {}, `the server cannot be reached (${e.message})`, 0);
    }
    const data = await response.json().catch(() => ({}));
    if (!response.ok) {
      const e = data.error || { code: "http", message: `HTTP ${response.status}`, params: {} };
      throw new ApiFailure(e.code, e.params || {}, e.message, response.status);
    }
    return data;
  }
  function idempotencyKey() {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  }
  function socketUrl(path) {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}${path}`;
  }

  // src/board.ts
  var SVG = "http://www.w3.org/2000/svg";
  var Board = class {
    constructor(element, handlers) {
      this.legal = [];
      /** The drops of the piece taken from the hand, whose squares are marked, or none. */
      this.dropping = null;
      /** The side whose pieces may be premoved (not its turn), or none. */
      this.premoveSide = null;
      this.premoveMark = null;
      this.arrows = [];
      this.selected = null;
      this.cursor = null;
      /** Arrow keys move the cursor only once the player has entered the board with Enter. */
      this.cursorMode = false;
      this.press = null;
      this.suppressClick = false;
      this.pending = false;
      /** The server's SVG text shown now. */
      this.picture = null;
      this.element = element;
      this.handlers = handlers;
      element.addEventListener("pointerdown", (e) => this.onPointerDown(e));
      element.addEventListener("pointermove", (e) => this.onPointerMove(e));
      element.addEventListener("pointerup", (e) => this.onPointerUp(e));
      element.addEventListener("pointercancel", () => this.cancelDrag());
      element.addEventListener("click", (e) => this.onClick(e));
      element.addEventListener("contextmenu", (e) => {
        if (this.premoveMark || this.selected) {
          e.preventDefault();
          this.setPremove(null, true);
          this.select(null);
        }
      });
      element.addEventListener("keydown", (e) => this.onKey(e));
    }
    /** Shows a new picture (the server's SVG text) and draws the marks again over it. While the
     * pointer is down on the board, the same picture again (a state that moved nothing: the
     * opponent joining, a draw offer) keeps the one shown, so that a piece being dragged is not
     * dropped; any other time the picture is replaced and a move waiting for its answer let go. */
    setPicture(svg) {
      if (svg === this.picture && this.press && !this.pending && this.element.querySelector("svg")) {
        this.redraw();
        return;
      }
      this.picture = svg;
      this.press = null;
      this.pending = false;
      this.element.innerHTML = svg;
      this.redraw();
    }
    /** The moves the player may make now (none: the board only shows). */
    setMoves(legal) {
      this.legal = legal.filter((m) => m.from !== m.to);
      this.dropping = null;
      if (this.selected && !this.movesFrom(this.selected).length && !this.canPremoveFrom(this.selected)) this.selected = null;
      this.redraw();
    }
    /** Lets the player premove the pieces of `side` while the other side is to move. */
    setPremoveSide(side) {
      this.premoveSide = side;
      if (!side) this.premoveMark = null;
      this.redraw();
    }
    /** The premove shown (set by the page, or cleared when played or refused). */
    setPremove(premove, tell = false) {
      this.premoveMark = premove;
      if (tell) this.handlers.premove?.(premove);
      this.redraw();
    }
    get premove() {
      return this.premoveMark;
    }
    setArrows(arrows) {
      this.arrows = arrows;
      this.redraw();
    }
    /** Puts a piece dropped by a move that was refused back where it was. */
    revert() {
      this.pending = false;
      this.element.querySelectorAll("g.piece.dragging, g.piece.dropped").forEach((g) => {
        g.removeAttribute("transform");
        g.classList.remove("dragging", "dropped");
      });
    }
    /** Takes a piece from the hand: `moves`, its legal drops, are marked on their squares, and
     * picking one of them plays it (picking another square lets the piece go). */
    startDrop(moves) {
      this.dropping = moves.length ? moves : null;
      this.selected = null;
      this.redraw();
    }
    /** Selects a square (its piece's destinations are marked), or none. */
    select(name) {
      this.selected = name;
      this.redraw();
    }
    svg() {
      return this.element.querySelector("svg");
    }
    target(name) {
      return name ? this.element.querySelector(`rect.square[data-square="${name}"]`) : null;
    }
    piece(name) {
      return this.element.querySelector(`g.piece[data-square="${name}"]`);
    }
    centre(name) {
      const r = this.target(name);
      if (!r) return null;
      return { x: Number(r.getAttribute("x")) + Number(r.getAttribute("width")) / 2, y: Number(r.getAttribute("y")) + Number(r.getAttribute("height")) / 2 };
    }
    cell() {
      const r = this.element.querySelector("rect.square");
      return r ? Number(r.getAttribute("width")) : 50;
    }
    movesFrom(from) {
      return this.legal.filter((m) => m.from === from);
    }
    canPremoveFrom(from) {
      return !!this.premoveSide && this.piece(from)?.dataset.side === this.premoveSide;
    }
    /** Squares a premove from `from` may go to: any square but those of the side's own pieces
     * (the move is checked when the turn comes). */
    premoveTargets(from) {
      return [...this.element.querySelectorAll("rect.square")].map((r) => r.dataset.square).filter((sq) => sq !== from && this.piece(sq)?.dataset.side !== this.premoveSide);
    }
    /** Draws the marks: the classes of the targets, and the page's own layer. */
    redraw() {
      const svg = this.svg();
      if (!svg) return;
      this.element.querySelectorAll("rect.square").forEach((r) => r.classList.remove("selected", "cursor", "movable", "premovable"));
      for (const m of this.legal) this.target(m.from)?.classList.add("movable");
      if (this.premoveSide) {
        this.element.querySelectorAll(`g.piece[data-side="${this.premoveSide}"]`).forEach((g) => this.target(g.dataset.square)?.classList.add("premovable"));
      }
      this.target(this.selected)?.classList.add("selected");
      if (this.cursorMode) this.target(this.cursor)?.classList.add("cursor");
      svg.querySelector("g.overlay")?.remove();
      const layer = document.createElementNS(SVG, "g");
      layer.setAttribute("class", "overlay");
      layer.setAttribute("pointer-events", "none");
      const cell = this.cell();
      if (this.premoveMark) {
        for (const sq of [this.premoveMark.from, this.premoveMark.to]) {
          const c = this.centre(sq);
          if (c) layer.append(shape("rect", { class: "premove-mark", x: c.x - cell / 2 + 1, y: c.y - cell / 2 + 1, width: cell - 2, height: cell - 2, rx: 6 }));
        }
      }
      for (const m of this.dropping ?? []) {
        const c = this.centre(m.to);
        if (c) layer.append(shape("circle", { class: "move-dot drop-dot", cx: c.x, cy: c.y, r: cell * 0.14, "data-square": m.to }));
      }
      if (this.selected) {
        const targets = this.movesFrom(this.selected).map((m) => m.to);
        const premoves = !targets.length && this.canPremoveFrom(this.selected) ? this.premoveTargets(this.selected) : [];
        for (const sq of /* @__PURE__ */ new Set([...targets, ...premoves])) {
          const c = this.centre(sq);
          if (!c) continue;
          const taken = this.piece(sq);
          const kind = premoves.length ? "premove-" : "";
          if (taken) layer.append(shape("circle", { class: `${kind}capture-ring`, cx: c.x, cy: c.y, r: cell * 0.46, "data-square": sq }));
          else layer.append(shape("circle", { class: `${kind}move-dot`, cx: c.x, cy: c.y, r: cell * 0.14, "data-square": sq }));
        }
      }
      for (const a of this.arrows) {
        const from = this.centre(a.from), to = this.centre(a.to);
        if (!from || !to) continue;
        const weight = a.weight ?? 1;
        const dx = to.x - from.x, dy = to.y - from.y;
        const length = Math.hypot(dx, dy) || 1;
        const end = { x: to.x - dx / length * cell * 0.25, y: to.y - dy / length * cell * 0.25 };
        const width = cell * (weight === 1 ? 0.17 : 0.11);
        const line = shape("line", { class: `analysis-arrow${weight === 1 ? " best" : ""}`, x1: from.x, y1: from.y, x2: end.x, y2: end.y, "stroke-width": width, "stroke-linecap": "round", "data-move": `${a.from}${a.to}` });
        const head = shape("polygon", { class: `analysis-arrow-head${weight === 1 ? " best" : ""}`, points: arrowHead(end, dx / length, dy / length, width * 2.2) });
        layer.append(line, head);
      }
      const firstTarget = svg.querySelector("rect.square");
      svg.insertBefore(layer, firstTarget);
    }
    /** A square picked by a click, a tap or the keyboard. */
    pick(name) {
      if (this.pending) return;
      if (this.dropping) {
        const drop = this.dropping.find((m) => m.to === name);
        this.dropping = null;
        if (drop) {
          this.redraw();
          this.handlers.move([drop]);
          return;
        }
      }
      const from = this.selected;
      if (from && from !== name) {
        const moves = this.movesFrom(from).filter((m) => m.to === name);
        if (moves.length) {
          this.selected = null;
          this.redraw();
          this.handlers.move(moves);
          return;
        }
        if (this.canPremoveFrom(from) && this.premoveTargets(from).includes(name)) {
          this.selected = null;
          this.setPremove({ from, to: name }, true);
          return;
        }
      }
      if (this.premoveMark && !from) this.setPremove(null, true);
      this.selected = (this.movesFrom(name).length || this.canPremoveFrom(name)) && from !== name ? name : null;
      this.redraw();
    }
    squareAt(event) {
      const hit = document.elementFromPoint(event.clientX, event.clientY);
      return hit?.dataset?.square;
    }
    /** A screen point in the picture's units. */
    svgPoint(event) {
      const svg = this.svg();
      const matrix = svg?.getScreenCTM();
      if (!svg || !matrix) return null;
      const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
      return { x: p.x, y: p.y };
    }
    // A press and a release on one square pick it; a press, a drag and a release on another
    // square play the move between them, the piece following the pointer meanwhile. Both are
    // done on the release, not on the click that may follow it (a tap whose finger moved a
    // little makes no click); that click is then skipped. A click with no press before it
    // (assistive tools) still picks.
    onPointerDown(event) {
      this.suppressClick = false;
      if (event.button !== 0) return;
      const from = this.squareAt(event);
      const start = this.svgPoint(event);
      if (!from || !start) return;
      this.press = { from, start, pointer: event.pointerId, dragging: false };
      if (this.movesFrom(from).length || this.canPremoveFrom(from)) {
        try {
          this.element.setPointerCapture(event.pointerId);
        } catch {
        }
      }
    }
    onPointerMove(event) {
      const press = this.press;
      if (!press || press.pointer !== event.pointerId || this.pending) return;
      const at = this.svgPoint(event);
      if (!at) return;
      if (!press.dragging) {
        if (Math.hypot(at.x - press.start.x, at.y - press.start.y) < this.cell() * 0.15) return;
        if (!this.movesFrom(press.from).length && !this.canPremoveFrom(press.from)) return;
        press.dragging = true;
        this.selected = press.from;
        this.redraw();
        const g2 = this.piece(press.from);
        if (g2) {
          g2.classList.add("dragging");
          this.svg()?.append(g2);
        }
      }
      const g = this.piece(press.from);
      const c = this.centre(press.from);
      if (g && c) g.setAttribute("transform", `translate(${at.x - c.x} ${at.y - c.y})`);
    }
    onPointerUp(event) {
      const press = this.press;
      this.press = null;
      if (!press || press.pointer !== event.pointerId) return;
      const to = this.squareAt(event);
      this.suppressClick = true;
      if (!press.dragging) {
        if (to === press.from) this.pick(to);
        else if (to) {
          if (this.movesFrom(press.from).some((m) => m.to === to)) {
            this.selected = press.from;
            this.pick(to);
          }
        }
        return;
      }
      const g = this.piece(press.from);
      const moves = to ? this.movesFrom(press.from).filter((m) => m.to === to) : [];
      if (moves.length && g && to) {
        const c = this.centre(press.from), d = this.centre(to);
        if (c && d) g.setAttribute("transform", `translate(${d.x - c.x} ${d.y - c.y})`);
        g.classList.replace("dragging", "dropped");
        this.pending = true;
        this.selected = null;
        this.redraw();
        this.handlers.move(moves);
        return;
      }
      this.revert();
      if (to && to !== press.from && this.canPremoveFrom(press.from) && this.premoveTargets(press.from).includes(to)) {
        this.selected = null;
        this.setPremove({ from: press.from, to }, true);
        return;
      }
      this.selected = press.from;
      this.redraw();
    }
    cancelDrag() {
      this.press = null;
      this.revert();
    }
    onClick(event) {
      if (this.suppressClick) {
        this.suppressClick = false;
        return;
      }
      const name = event.target.dataset?.square;
      if (name) this.pick(name);
    }
    /** Is the keyboard cursor in use (arrow keys belong to the board)? */
    get keyboardCursor() {
      return this.cursorMode;
    }
    // Keyboard: Enter enters the board (a cursor appears on a piece that can move); then the
    // arrow keys move the cursor over the squares as seen on the screen, Enter or Space picks,
    // Escape lets go of the piece picked, or else leaves. Outside the cursor the arrow keys are the page's (stepping
    // through the moves).
    onKey(event) {
      const squares = [...this.element.querySelectorAll("rect.square")];
      if (!squares.length) return;
      if (!this.cursorMode) {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          this.cursorMode = true;
          this.cursor = this.selected || this.legal[0]?.from || squares[0].dataset.square || null;
          this.redraw();
        }
        return;
      }
      const box = (r) => ({ x: Number(r.getAttribute("x")), y: Number(r.getAttribute("y")) });
      const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[event.key];
      if (step) {
        event.preventDefault();
        event.stopPropagation();
        const current3 = this.target(this.cursor);
        if (!current3) {
          this.cursor = squares[0].dataset.square || null;
        } else {
          const here = box(current3);
          let best = null;
          for (const r of squares) {
            const b = box(r);
            const dx = b.x - here.x, dy = b.y - here.y;
            const along = step[0] ? dx * step[0] : dy * step[1];
            const across = step[0] ? Math.abs(dy) : Math.abs(dx);
            if (along > 0 && across < 1 && (!best || along < best.along)) best = { along, name: r.dataset.square };
          }
          if (best) this.cursor = best.name;
        }
        this.redraw();
      } else if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        if (this.cursor) this.pick(this.cursor);
      } else if (event.key === "Escape") {
        if (this.selected) this.selected = null;
        else this.cursorMode = false;
        this.redraw();
      }
    }
  };
  function shape(tag2, attrs) {
    const el = document.createElementNS(SVG, tag2);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
    return el;
  }
  function arrowHead(tip, ux, uy, size) {
    const back = { x: tip.x - ux * size, y: tip.y - uy * size };
    const left = { x: back.x - uy * size * 0.6, y: back.y + ux * size * 0.6 };
    const right = { x: back.x + uy * size * 0.6, y: back.y - ux * size * 0.6 };
    const tipOut = { x: tip.x + ux * size * 0.35, y: tip.y + uy * size * 0.35 };
    return [tipOut, left, right].map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(" ");
  }

  // src/dom.ts
  function h(tag2, attrs = {}, ...children) {
    const el = document.createElement(tag2);
    for (const [key, value] of Object.entries(attrs)) {
      if (value === null || value === void 0 || value === false) continue;
      if (key.startsWith("on") && typeof value === "function") {
        el.addEventListener(key.slice(2), value);
      } else if (key === "className") {
        el.className = String(value);
      } else if (key === "text") {
        el.textContent = String(value);
      } else if (value === true) {
        el.setAttribute(key, "");
      } else {
        el.setAttribute(key, String(value));
      }
    }
    append(el, ...children);
    return el;
  }
  function append(parent, ...children) {
    for (const c of children) {
      if (c === null || c === void 0 || c === false) continue;
      parent.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
    }
  }
  function fill(parent, ...children) {
    parent.textContent = "";
    append(parent, ...children);
  }
  function $(selector, root = document) {
    const el = root.querySelector(selector);
    if (!el) throw new Error(`no element ${selector}`);
    return el;
  }
  function link(href, ...children) {
    return h("a", { href }, ...children);
  }

  // src/lang/zh-Hans.ts
  var zhHans = {
    "nav.play": "对弈",
    "nav.archive": "棋局库",
    "nav.leaderboard": "排行榜",
    "nav.analysis": "分析",
    "nav.login": "登录",
    "nav.signup": "注册",
    "nav.account": "账户",
    "nav.logout": "退出",
    "nav.guest": "{name}（游客）",
    "nav.language": "语言",
    "title.site": "楚河 chuhe — 下象棋和熊棋",
    "title.game": "{game} — 楚河",
    "title.turn": "{turn} — {game} — 楚河",
    "title.your_turn": "轮到你走 — {game} — 楚河",
    "title.analysis": "分析棋盘 — chuhe",
    "title.analysis_turn": "{turn}走 — {game}分析 — chuhe",
    "title.editor": "棋盘编辑器 — chuhe",
    "game.xiangqi": "象棋",
    "game.xiongqi": "熊棋",
    "game.xiangqi-capture": "象棋（吃将规则）",
    "game.xiangqi.long": "象棋 Xiangqi",
    "game.xiongqi.long": "熊棋 Xiongqi",
    "game.xiangqi-capture.long": "象棋，吃将规则",
    "game.rules_long": "{name}，{files}×{ranks}（规则文件）",
    "side.red": "红方",
    "side.black": "黑方",
    "side.south": "南方",
    "side.north": "北方",
    "speed.bullet": "超快棋",
    "speed.blitz": "快棋",
    "speed.rapid": "中速棋",
    "speed.classical": "慢棋",
    "mode.rated": "计分",
    "mode.casual": "不计分",
    "clock.none": "不限时",
    "color.first": "先手（红方，先走）",
    "color.second": "后手（黑方）",
    "color.random": "随机",
    "engine.name": "楚河引擎 {level} 级",
    "player.open_seat": "等待对手",
    "lobby.quick": "快速配对",
    "lobby.quick_help": "点一个用时：你的约战会在这里等待对手。",
    "lobby.create": "发起对局",
    "lobby.seeks": "大厅",
    "lobby.no_seeks": "现在没有人在约战。发起一个吧！",
    "lobby.player": "棋手",
    "lobby.rating": "等级分",
    "lobby.time": "用时",
    "lobby.mode": "模式",
    "lobby.accept": "应战",
    "lobby.not_served": "此服务器不提供这种棋：请在提供它的服务器上对弈。",
    "lobby.cancel": "取消",
    "lobby.your_seek": "你的约战",
    "lobby.seek": "发起约战",
    "lobby.rated_needs_account": "计分对局需要账户：请注册或登录。",
    "lobby.challenges": "挑战",
    "lobby.no_challenges": "没有挑战。",
    "lobby.challenge_from": "{name} 向你挑战：{terms}",
    "lobby.challenge_to": "你向 {name} 挑战：{terms}",
    "lobby.challenge": "挑战棋手",
    "lobby.challenge_name": "棋手名",
    "lobby.send_challenge": "发出挑战",
    "lobby.decline": "拒绝",
    "lobby.playing": "正在进行的对局",
    "lobby.no_playing": "现在没有棋手之间的对局。",
    "lobby.spectators": "{n} 人观战",
    "lobby.engine": "与引擎对弈",
    "lobby.engine_or_friend": "与引擎或朋友对弈",
    "lobby.friend": "与朋友对弈",
    "lobby.friend_help": "你会得到一个链接；第一个打开它的人与你对弈。",
    "lobby.import": "导入棋谱",
    "lobby.import_help": "PGN、PCN、FEN 或 FEEN，或 XQF 文件：以复盘棋盘打开。",
    "lobby.import_file": "或 XQF 文件",
    "lobby.imported_format": "按 {format} 读取。",
    "form.game": "棋种",
    "form.opponent": "对手",
    "form.level": "引擎强度",
    "form.side": "你执",
    "form.clock": "用时",
    "form.minutes": "分钟",
    "form.increment": "每步加秒",
    "form.rated": "计分",
    "form.position": "从局面开始（FEEN，象棋也可用 FEN）",
    "form.start": "开始对局",
    "form.invite": "生成邀请链接",
    "form.import": "导入",
    "form.name": "名字",
    "form.password": "密码",
    "form.new_password": "新密码",
    "form.old_password": "当前密码",
    "account.login": "登录",
    "account.signup": "注册",
    "account.signup_closed": "本站已关闭注册：请向管理员申请账户。",
    "account.signup_help": "2–24 个字符，任何文字都可以（中文、Tiếng Việt…）。游客时下的棋仍归你。",
    "account.have_account": "已有账户？登录",
    "account.need_account": "没有账户？注册",
    "account.title": "你的账户",
    "account.change_password": "修改密码",
    "account.password_changed": "密码已修改；你在其他设备上的登录已结束。",
    "account.profile": "你的主页",
    "play.your_move": "轮到你走（{side}）",
    "play.to_move": "{side}走",
    "play.watching": "{side}走 — 你在观战",
    "play.check": "将军！",
    "play.thinking": "引擎思考中…",
    "play.offers_draw": "{side}提和",
    "play.type_move": "输入着法",
    "play.play": "走",
    "play.resign": "认输",
    "play.resign_confirm": "确定认输？",
    "play.abort": "取消对局",
    "play.offer_draw": "提和",
    "play.accept_draw": "接受和棋",
    "play.decline": "拒绝",
    "play.take_back": "悔棋",
    "play.flip": "翻转棋盘",
    "play.latin": "拉丁字母",
    "play.sound_off": "关闭声音",
    "play.sound_on": "打开声音",
    "play.analyse": "分析",
    "play.chinese": "汉字棋子",
    "play.rematch": "再来一局",
    "play.rematch_offered": "已提议再来一局…",
    "play.accept_rematch": "接受再来一局",
    "play.rematch_from": "{side}提议再来一局",
    "play.to_rematch": "前往新对局",
    "play.invite": "把这个链接发给朋友（第一个打开它的人与你对弈）：",
    "play.copy": "复制",
    "play.copied": "已复制",
    "play.watch_link": "观战链接",
    "play.spectators": "观战：",
    "play.download_pcn": "下载 PCN",
    "play.download_pgn": "下载 PGN",
    "play.position": "局面",
    "play.game_over": "对局结束：{text}",
    "play.seat_taken": "座位已被别人占了：你在观战。",
    "play.review": "导入的棋谱：用箭头复盘。",
    "play.first_move_within": "须在 {time} 内走第一步",
    "play.promote": "兵要升变吗？",
    "play.promote_to": "升变为哪个棋子？",
    "play.in_hand": "手中：{pieces}",
    "play.drop": "打入{piece}：再选一个标出的格子",
    "play.cancel": "取消",
    "play.ply": "{shown} / {total}",
    "play.start": "回到开局",
    "play.back": "后退一步",
    "play.forward": "前进一步",
    "play.now": "到最新一步",
    "play.board": "棋盘：按回车用键盘走棋（方向键移动光标，回车选子和落点，Esc 退出）；←/→ 逐步查看着法",
    "play.moves": "着法",
    "play.notation": "着法记法",
    "notation.coords": "坐标",
    "notation.wxf": "坐标和 WXF",
    "notation.chinese": "中文（炮二平五）",
    "play.casual": "不计分",
    "analysis.title": "分析",
    "analysis.eval_bar": "局面评估",
    "analysis.engine": "引擎",
    "analysis.lines": "变着数",
    "analysis.promote": "设为主线",
    "analysis.delete": "从此删除",
    "analysis.edit": "编辑棋盘",
    "analysis.to_game": "返回对局",
    "analysis.no_moves": "在棋盘上走子，或点击引擎变着中的一步。",
    "analysis.disconnected": "引擎：正在重新连接…",
    "analysis.off": "引擎已关闭",
    "analysis.over": "此局面对局已结束",
    "analysis.starting": "引擎：正在启动…",
    "analysis.queued": "引擎：排队中（前面还有 {ahead} 个）",
    "analysis.depth": "深度 {depth} · 每秒 {speed} 千节点",
    "analysis.paused": "引擎：暂停让位给对局，稍后继续",
    "analysis.done": "引擎：已完成，深度 {depth}",
    "analysis.error": "引擎：被拒绝",
    "analysis.depth_short": "深{depth}",
    "review.title": "电脑复盘",
    "review.request": "请求电脑复盘",
    "review.progress": "复盘中：{done} / {total} 个局面",
    "review.budget": "每个局面搜索 {nodes} 个节点。",
    "review.chart": "每步后的局面评估",
    "review.accuracy": "准确度",
    "review.inaccuracies": "缓着",
    "review.mistakes": "错着",
    "review.blunders": "败着",
    "editor.title": "棋盘编辑器",
    "editor.board": "棋盘：点击棋位放置所选棋子，再点一次移除",
    "editor.game": "棋种",
    "editor.turn": "轮到",
    "editor.eraser": "橡皮擦",
    "editor.start": "初始局面",
    "editor.clear": "清空棋盘",
    "editor.valid": "规则接受此局面。",
    "editor.analyse": "分析此局面",
    "play.rated": "计分",
    "result.checkmate": "{winner}胜：将死",
    "result.stalemate": "{winner}胜：{loser}困毙",
    "result.nomove": "{winner}胜：{loser}无棋可走",
    "result.bareking": "{winner}胜：光杆老将",
    "result.mareking": "{winner}胜：{loser}的将被吃",
    "result.mareking_rules": "{winner}胜：{loser}的{piece}被吃",
    "result.resignation": "{winner}胜：对方认输",
    "result.abandoned": "{winner}胜：{loser}离开了对局",
    "result.timelimit": "{winner}胜：对方超时",
    "result.illegalmove": "{winner}胜：{loser}走了禁着",
    "result.repetition": "{winner}胜：{loser}重复局面",
    "result.perpetual_check": "{winner}胜：{loser}长将",
    "result.perpetual_chase": "{winner}胜：{loser}长捉",
    "result.agreement": "{winner}胜：双方同意",
    "result.movelimit": "{winner}胜：步数限制",
    "result.insufficient": "{winner}胜：{loser}无法取胜",
    "result.win": "{winner}胜",
    "draw.agreement": "和棋：双方同意",
    "draw.repetition": "和棋：重复局面",
    "draw.movelimit": "和棋：步数限制",
    "draw.insufficient": "和棋：双方都无法取胜",
    "draw.stalemate": "和棋：困毙",
    "draw.other": "和棋",
    "result.aborted": "对局已取消",
    "result.aborted_late": "对局已取消：{side}没有按时走第一步",
    "result.in_play": "进行中",
    "result.draw_short": "½–½",
    "notice.draw_declined": "{side}拒绝了和棋",
    "archive.title": "棋局库",
    "archive.player": "棋手",
    "archive.vs": "对手",
    "archive.result": "结果",
    "archive.since": "从",
    "archive.until": "到",
    "archive.tc": "用时",
    "archive.rated": "计分",
    "archive.opponent": "类型",
    "archive.any": "全部",
    "archive.yes": "是",
    "archive.no": "否",
    "archive.filter": "显示",
    "archive.ongoing": "进行中",
    "archive.finished": "已结束",
    "archive.aborted": "已取消",
    "archive.draws": "和棋",
    "archive.wins": "胜（该棋手）",
    "archive.losses": "负（该棋手）",
    "archive.engine": "对引擎",
    "archive.friend": "棋手之间",
    "archive.record": "导入的",
    "archive.count": "找到的对局：{n}",
    "archive.none": "没有符合的对局。",
    "archive.prev": "较新",
    "archive.next": "较早",
    "archive.moves": "步数：{n}",
    "archive.open": "打开",
    "profile.member_since": "注册于 {date}",
    "profile.guest": "游客（没有账户）",
    "profile.ratings": "等级分",
    "profile.no_ratings": "还没有计分对局。",
    "profile.record": "对局：{games} — 胜 {wins}，负 {losses}，和 {draws}；进行中：{playing}",
    "profile.games": "最近的对局",
    "profile.all_games": "全部对局",
    "profile.chart": "等级分走势",
    "profile.challenge": "挑战 {name}",
    "profile.games_count": "计分对局：{n}",
    "leaderboard.title": "排行榜",
    "leaderboard.empty": "还没有计分对局。",
    "leaderboard.rank": "#",
    "leaderboard.player": "棋手",
    "leaderboard.rating": "等级分",
    "leaderboard.games": "对局",
    "error.game_over": "对局已经结束。",
    "error.not_your_turn": "还没轮到你走。",
    "error.engine_thinking": "引擎正在思考，请等它走完。",
    "error.stale": "对局刚刚变了，已重新载入。",
    "error.bad_move": "看不懂着法“{move}”。",
    "error.illegal_move": "“{move}”不能走。",
    "error.illegal_move.no_piece": "“{move}”：{square} 上没有棋子。",
    "error.illegal_move.not_your_piece": "“{move}”：{square} 上的棋子不是你的。",
    "error.no_takeback": "你没有可以悔的棋。",
    "error.no_takeback.engine_only": "只有对引擎才能悔棋。",
    "error.no_draw_offer": "没有可以回应的提和。",
    "error.draw_offered": "你已经提过和了。",
    "error.cannot_abort": "双方都已走棋：请认输。",
    "error.not_over": "对局还没结束。",
    "error.no_rematch_offer": "没有可以回应的再来一局。",
    "error.rematch_made": "新对局已经开始了。",
    "error.review_only": "导入的棋谱只能复盘，不能走棋。",
    "error.forbidden": "只有对局双方可以这样做。",
    "error.seat_taken": "座位已被别人占了：你在观战。",
    "error.bad_invite": "这个邀请链接不属于这盘棋。",
    "error.not_found": "没有找到。",
    "error.game_not_served": "这盘棋是{game}，本服务器这次启动时没有载入它的规则。棋局原样保存，服务器用 --rules 载入它的规则后即可继续。",
    "error.rules_changed": "这盘{game}按本服务器这次载入的规则已无法重放：它的规则文件在对局之后改动过。棋局原样保存，服务器载入当时的规则后即可继续。",
    "error.bad_name": "名字不合要求。",
    "error.bad_name.length": "名字须为 2 到 24 个字符。",
    "error.bad_name.invisible": "名字里有看不见的字符或控制字符。",
    "error.bad_name.spaces": "名字里有连续两个空格。",
    "error.bad_name.no_letter": "名字里至少要有一个字或数字。",
    "error.bad_name.guest_prefix": "名字不能以“Guest-”开头。",
    "error.name_taken": "名字“{name}”已被使用。",
    "error.bad_password": "密码不合要求。",
    "error.bad_password.short": "密码至少要 8 个字符。",
    "error.bad_password.long": "密码太长了。",
    "error.wrong_login": "名字或密码不对。",
    "error.too_many_attempts": "尝试次数太多：请 {retry_after} 秒后再试。",
    "error.signup_closed": "本站已关闭注册。",
    "error.not_signed_in": "请先登录。",
    "error.guests_unrated": "游客不能下计分对局：请注册或登录。",
    "error.bad_terms": "对局条件不合要求。",
    "error.bad_terms.initial": "起始用时须为 1 秒到 180 分钟。",
    "error.bad_terms.increment": "每步加秒最多 180 秒。",
    "error.bad_terms.rated_needs_clock": "计分对局需要限时。",
    "error.bad_terms.side": "请选择先手、后手或随机。",
    "error.bad_terms.socket": "大厅页面已重新载入：请再试一次。",
    "error.gone": "已经不存在了。",
    "error.own_seek": "这是你自己的约战。",
    "error.too_many_seeks": "你发起的约战太多了。",
    "error.unknown_player": "没有名叫“{name}”的棋手。",
    "error.self_challenge": "不能挑战自己。",
    "error.too_many_games": "新对局太多了：请稍等。",
    "error.database_unavailable": "数据库暂时不可用，请再试一次。",
    "error.network": "无法连接服务器。",
    "error.board": "棋盘无法绘制（{why}）。",
    "error.bad_position": "规则不接受此局面：{message}",
    "setup.board_size": "棋盘为 {size}，本棋应为 {want}",
    "setup.soldier_mark": "“{piece}”的写法与兵卒所在位置不符，应写作“{want}”",
    "setup.unknown_piece": "“{piece}”不是本棋的棋子",
    "setup.style": "棋风写作 {style}，应写作 {want}",
    "setup.no_general": "{side}没有将帅",
    "setup.generals_count": "{side}有 {n} 个将帅，每方只能有一个",
    "setup.terminals_count": "{side}有 {n} 个将帅或龙，每方最多一个",
    "setup.general_outside_palace": "{side}的将帅在九宫之外",
    "setup.advisor_point": "{side}的士不能在此位置（只能在九宫四角和中心）",
    "setup.elephant_point": "{side}的象不能在此位置（只能在己方七个象位）",
    "setup.soldier_behind": "{side}的兵卒在起始线之后，兵卒永远走不到那里",
    "setup.not_to_move_in_check": "不走棋的一方（{side}）正被将军（将帅在 {square}）：没有合法着法能走成此局面",
    "setup.too_many_pieces": "棋盘和手中共有 {n} 枚棋子，多于 {squares} 个格子",
    "setup.dragon_with_general": "{dragon} 有龙而 {general} 有将：将会同时变成龙",
    "setup.generals_face": "{a} 和 {b} 的将帅对面：它们本该已变成龙",
    "setup.hand": "{side}的手中",
    "setup.hand_own": "“{piece}”是{side}自己的棋子：被吃的棋子进入吃子一方的手中，所以{side}手中只能有{other}的棋子",
    "setup.general_never_captured": "“{piece}”：标准规则下将帅永远不会被吃",
    "setup.general_on_board": "“{piece}”：{other}的将帅仍在棋盘上",
    "setup.one_general": "“{piece}”：{other}只有一个将帅",
    "setup.capture_ends": "“{piece}”：吃掉将帅即终局，所以{side}的将帅不可能也不在棋盘上",
    "setup.terminal_on_board": "“{piece}”：{other}的将或龙仍在棋盘上（{square}）",
    "setup.one_terminal": "“{piece}”：{other}只有一个将或龙",
    "setup.terminal_capture_ends": "“{piece}”：吃掉将或龙即终局，所以{side}的将或龙不可能也不在棋盘上",
    "setup.terminal_kind": "“{piece}”：被吃的是{kind}，说明{side}的也是{kind}（将同时变成龙），但{side}的是{mine}",
    "setup.kind.general": "将",
    "setup.kind.dragon": "龙",
    "error.bad_game": "没有这种棋。",
    "error.analysis_busy": "引擎繁忙：请 {retry_after} 秒后再试。",
    "error.game_not_over": "对局尚未结束。",
    "error.no_review": "此对局尚无复盘。"
  };

  // src/lang/zh-Hant.ts
  var zhHant = {
    "nav.play": "對弈",
    "nav.archive": "棋局庫",
    "nav.leaderboard": "排行榜",
    "nav.analysis": "分析",
    "nav.login": "登入",
    "nav.signup": "註冊",
    "nav.account": "帳號",
    "nav.logout": "登出",
    "nav.guest": "{name}（訪客）",
    "nav.language": "語言",
    "title.site": "楚河 chuhe — 下象棋和熊棋",
    "title.game": "{game} — 楚河",
    "title.turn": "{turn} — {game} — 楚河",
    "title.your_turn": "輪到你走 — {game} — 楚河",
    "title.analysis": "分析棋盤 — chuhe",
    "title.analysis_turn": "{turn}走 — {game}分析 — chuhe",
    "title.editor": "棋盤編輯器 — chuhe",
    "game.xiangqi": "象棋",
    "game.xiongqi": "熊棋",
    "game.xiangqi-capture": "象棋（吃將規則）",
    "game.xiangqi.long": "象棋 Xiangqi",
    "game.xiongqi.long": "熊棋 Xiongqi",
    "game.xiangqi-capture.long": "象棋，吃將規則",
    "game.rules_long": "{name}，{files}×{ranks}（規則檔案）",
    "side.red": "紅方",
    "side.black": "黑方",
    "side.south": "南方",
    "side.north": "北方",
    "speed.bullet": "超快棋",
    "speed.blitz": "快棋",
    "speed.rapid": "中速棋",
    "speed.classical": "慢棋",
    "mode.rated": "計分",
    "mode.casual": "不計分",
    "clock.none": "不限時",
    "color.first": "先手（紅方，先走）",
    "color.second": "後手（黑方）",
    "color.random": "隨機",
    "engine.name": "楚河引擎 {level} 級",
    "player.open_seat": "等待對手",
    "lobby.quick": "快速配對",
    "lobby.quick_help": "點一個用時：你的約戰會在這裡等待對手。",
    "lobby.create": "發起對局",
    "lobby.seeks": "大廳",
    "lobby.no_seeks": "現在沒有人在約戰。發起一個吧！",
    "lobby.player": "棋手",
    "lobby.rating": "等級分",
    "lobby.time": "用時",
    "lobby.mode": "模式",
    "lobby.accept": "應戰",
    "lobby.not_served": "此伺服器不提供這種棋：請在提供它的伺服器上對弈。",
    "lobby.cancel": "取消",
    "lobby.your_seek": "你的約戰",
    "lobby.seek": "發起約戰",
    "lobby.rated_needs_account": "計分對局需要帳號：請註冊或登入。",
    "lobby.challenges": "挑戰",
    "lobby.no_challenges": "沒有挑戰。",
    "lobby.challenge_from": "{name} 向你挑戰：{terms}",
    "lobby.challenge_to": "你向 {name} 挑戰：{terms}",
    "lobby.challenge": "挑戰棋手",
    "lobby.challenge_name": "棋手名",
    "lobby.send_challenge": "發出挑戰",
    "lobby.decline": "拒絕",
    "lobby.playing": "正在進行的對局",
    "lobby.no_playing": "現在沒有棋手之間的對局。",
    "lobby.spectators": "{n} 人觀戰",
    "lobby.engine": "與引擎對弈",
    "lobby.engine_or_friend": "與引擎或朋友對弈",
    "lobby.friend": "與朋友對弈",
    "lobby.friend_help": "你會得到一個連結；第一個開啟它的人與你對弈。",
    "lobby.import": "匯入棋譜",
    "lobby.import_help": "PGN、PCN、FEN 或 FEEN，或 XQF 檔案：以覆盤棋盤開啟。",
    "lobby.import_file": "或 XQF 檔案",
    "lobby.imported_format": "按 {format} 讀取。",
    "form.game": "棋種",
    "form.opponent": "對手",
    "form.level": "引擎強度",
    "form.side": "你執",
    "form.clock": "用時",
    "form.minutes": "分鐘",
    "form.increment": "每步加秒",
    "form.rated": "計分",
    "form.position": "從局面開始（FEEN，象棋也可用 FEN）",
    "form.start": "開始對局",
    "form.invite": "生成邀請連結",
    "form.import": "匯入",
    "form.name": "名字",
    "form.password": "密碼",
    "form.new_password": "新密碼",
    "form.old_password": "當前密碼",
    "account.login": "登入",
    "account.signup": "註冊",
    "account.signup_closed": "本站已關閉註冊：請向管理員申請帳號。",
    "account.signup_help": "2–24 個字元，任何文字都可以（中文、Tiếng Việt…）。訪客時下的棋仍歸你。",
    "account.have_account": "已有帳號？登入",
    "account.need_account": "沒有帳號？註冊",
    "account.title": "你的帳號",
    "account.change_password": "修改密碼",
    "account.password_changed": "密碼已修改；你在其他裝置上的登入已結束。",
    "account.profile": "你的主頁",
    "play.your_move": "輪到你走（{side}）",
    "play.to_move": "{side}走",
    "play.watching": "{side}走 — 你在觀戰",
    "play.check": "將軍！",
    "play.thinking": "引擎思考中…",
    "play.offers_draw": "{side}提和",
    "play.type_move": "輸入著法",
    "play.play": "走",
    "play.resign": "認輸",
    "play.resign_confirm": "確定認輸？",
    "play.abort": "取消對局",
    "play.offer_draw": "提和",
    "play.accept_draw": "接受和棋",
    "play.decline": "拒絕",
    "play.take_back": "悔棋",
    "play.flip": "翻轉棋盤",
    "play.latin": "拉丁字母",
    "play.sound_off": "關閉聲音",
    "play.sound_on": "打開聲音",
    "play.analyse": "分析",
    "play.chinese": "漢字棋子",
    "play.rematch": "再來一局",
    "play.rematch_offered": "已提議再來一局…",
    "play.accept_rematch": "接受再來一局",
    "play.rematch_from": "{side}提議再來一局",
    "play.to_rematch": "前往新對局",
    "play.invite": "把這個連結發給朋友（第一個開啟它的人與你對弈）：",
    "play.copy": "複製",
    "play.copied": "已複製",
    "play.watch_link": "觀戰連結",
    "play.spectators": "觀戰：",
    "play.download_pcn": "下載 PCN",
    "play.download_pgn": "下載 PGN",
    "play.position": "局面",
    "play.game_over": "對局結束：{text}",
    "play.seat_taken": "座位已被別人佔了：你在觀戰。",
    "play.review": "匯入的棋譜：用箭頭覆盤。",
    "play.first_move_within": "須在 {time} 內走第一步",
    "play.promote": "兵要升變嗎？",
    "play.promote_to": "升變為哪個棋子？",
    "play.in_hand": "手中：{pieces}",
    "play.drop": "打入{piece}：再選一個標出的格子",
    "play.cancel": "取消",
    "play.ply": "{shown} / {total}",
    "play.start": "回到開局",
    "play.back": "後退一步",
    "play.forward": "前進一步",
    "play.now": "到最新一步",
    "play.board": "棋盤：按回車用鍵盤走棋（方向鍵移動游標，回車選子和落點，Esc 退出）；←/→ 逐步查看著法",
    "play.moves": "著法",
    "play.notation": "著法記法",
    "notation.coords": "座標",
    "notation.wxf": "座標和 WXF",
    "notation.chinese": "中文（炮二平五）",
    "play.casual": "不計分",
    "analysis.title": "分析",
    "analysis.eval_bar": "局面評估",
    "analysis.engine": "引擎",
    "analysis.lines": "變著數",
    "analysis.promote": "設為主線",
    "analysis.delete": "從此刪除",
    "analysis.edit": "編輯棋盤",
    "analysis.to_game": "返回對局",
    "analysis.no_moves": "在棋盤上走子，或點擊引擎變著中的一步。",
    "analysis.disconnected": "引擎：正在重新連線…",
    "analysis.off": "引擎已關閉",
    "analysis.over": "此局面對局已結束",
    "analysis.starting": "引擎：正在啟動…",
    "analysis.queued": "引擎：排隊中（前面還有 {ahead} 個）",
    "analysis.depth": "深度 {depth} · 每秒 {speed} 千節點",
    "analysis.paused": "引擎：暫停讓位給對局，稍後繼續",
    "analysis.done": "引擎：已完成，深度 {depth}",
    "analysis.error": "引擎：被拒絕",
    "analysis.depth_short": "深{depth}",
    "review.title": "電腦覆盤",
    "review.request": "請求電腦覆盤",
    "review.progress": "覆盤中：{done} / {total} 個局面",
    "review.budget": "每個局面搜尋 {nodes} 個節點。",
    "review.chart": "每步後的局面評估",
    "review.accuracy": "準確度",
    "review.inaccuracies": "緩著",
    "review.mistakes": "錯著",
    "review.blunders": "敗著",
    "editor.title": "棋盤編輯器",
    "editor.board": "棋盤：點擊棋位放置所選棋子，再點一次移除",
    "editor.game": "棋種",
    "editor.turn": "輪到",
    "editor.eraser": "橡皮擦",
    "editor.start": "初始局面",
    "editor.clear": "清空棋盤",
    "editor.valid": "規則接受此局面。",
    "editor.analyse": "分析此局面",
    "play.rated": "計分",
    "result.checkmate": "{winner}勝：將死",
    "result.stalemate": "{winner}勝：{loser}困斃",
    "result.nomove": "{winner}勝：{loser}無棋可走",
    "result.bareking": "{winner}勝：光桿老將",
    "result.mareking": "{winner}勝：{loser}的將被吃",
    "result.mareking_rules": "{winner}勝：{loser}的{piece}被吃",
    "result.resignation": "{winner}勝：對方認輸",
    "result.abandoned": "{winner}勝：{loser}離開了對局",
    "result.timelimit": "{winner}勝：對方超時",
    "result.illegalmove": "{winner}勝：{loser}走了禁著",
    "result.repetition": "{winner}勝：{loser}重複局面",
    "result.perpetual_check": "{winner}勝：{loser}長將",
    "result.perpetual_chase": "{winner}勝：{loser}長捉",
    "result.agreement": "{winner}勝：雙方同意",
    "result.movelimit": "{winner}勝：步數限制",
    "result.insufficient": "{winner}勝：{loser}無法取勝",
    "result.win": "{winner}勝",
    "draw.agreement": "和棋：雙方同意",
    "draw.repetition": "和棋：重複局面",
    "draw.movelimit": "和棋：步數限制",
    "draw.insufficient": "和棋：雙方都無法取勝",
    "draw.stalemate": "和棋：困斃",
    "draw.other": "和棋",
    "result.aborted": "對局已取消",
    "result.aborted_late": "對局已取消：{side}沒有按時走第一步",
    "result.in_play": "進行中",
    "result.draw_short": "½–½",
    "notice.draw_declined": "{side}拒絕了和棋",
    "archive.title": "棋局庫",
    "archive.player": "棋手",
    "archive.vs": "對手",
    "archive.result": "結果",
    "archive.since": "從",
    "archive.until": "到",
    "archive.tc": "用時",
    "archive.rated": "計分",
    "archive.opponent": "型別",
    "archive.any": "全部",
    "archive.yes": "是",
    "archive.no": "否",
    "archive.filter": "顯示",
    "archive.ongoing": "進行中",
    "archive.finished": "已結束",
    "archive.aborted": "已取消",
    "archive.draws": "和棋",
    "archive.wins": "勝（該棋手）",
    "archive.losses": "負（該棋手）",
    "archive.engine": "對引擎",
    "archive.friend": "棋手之間",
    "archive.record": "匯入的",
    "archive.count": "找到的對局：{n}",
    "archive.none": "沒有符合的對局。",
    "archive.prev": "較新",
    "archive.next": "較早",
    "archive.moves": "步數：{n}",
    "archive.open": "開啟",
    "profile.member_since": "註冊於 {date}",
    "profile.guest": "訪客（沒有帳號）",
    "profile.ratings": "等級分",
    "profile.no_ratings": "還沒有計分對局。",
    "profile.record": "對局：{games} — 勝 {wins}，負 {losses}，和 {draws}；進行中：{playing}",
    "profile.games": "最近的對局",
    "profile.all_games": "全部對局",
    "profile.chart": "等級分走勢",
    "profile.challenge": "挑戰 {name}",
    "profile.games_count": "計分對局：{n}",
    "leaderboard.title": "排行榜",
    "leaderboard.empty": "還沒有計分對局。",
    "leaderboard.rank": "#",
    "leaderboard.player": "棋手",
    "leaderboard.rating": "等級分",
    "leaderboard.games": "對局",
    "error.game_over": "對局已經結束。",
    "error.not_your_turn": "還沒輪到你走。",
    "error.engine_thinking": "引擎正在思考，請等它走完。",
    "error.stale": "對局剛剛變了，已重新載入。",
    "error.bad_move": "看不懂著法“{move}”。",
    "error.illegal_move": "“{move}”不能走。",
    "error.illegal_move.no_piece": "“{move}”：{square} 上沒有棋子。",
    "error.illegal_move.not_your_piece": "“{move}”：{square} 上的棋子不是你的。",
    "error.no_takeback": "你沒有可以悔的棋。",
    "error.no_takeback.engine_only": "只有對引擎才能悔棋。",
    "error.no_draw_offer": "沒有可以回應的提和。",
    "error.draw_offered": "你已經提過和了。",
    "error.cannot_abort": "雙方都已走棋：請認輸。",
    "error.not_over": "對局還沒結束。",
    "error.no_rematch_offer": "沒有可以回應的再來一局。",
    "error.rematch_made": "新對局已經開始了。",
    "error.review_only": "匯入的棋譜只能覆盤，不能走棋。",
    "error.forbidden": "只有對局雙方可以這樣做。",
    "error.seat_taken": "座位已被別人佔了：你在觀戰。",
    "error.bad_invite": "這個邀請連結不屬於這盤棋。",
    "error.not_found": "沒有找到。",
    "error.game_not_served": "這盤棋是{game}，本伺服器這次啟動時沒有載入它的規則。棋局原樣保存，伺服器用 --rules 載入它的規則後即可繼續。",
    "error.rules_changed": "這盤{game}按本伺服器這次載入的規則已無法重放：它的規則檔案在對局之後改動過。棋局原樣保存，伺服器載入當時的規則後即可繼續。",
    "error.bad_name": "名字不合要求。",
    "error.bad_name.length": "名字須為 2 到 24 個字元。",
    "error.bad_name.invisible": "名字裡有看不見的字元或控制字元。",
    "error.bad_name.spaces": "名字裡有連續兩個空格。",
    "error.bad_name.no_letter": "名字裡至少要有一個字或數字。",
    "error.bad_name.guest_prefix": "名字不能以“Guest-”開頭。",
    "error.name_taken": "名字“{name}”已被使用。",
    "error.bad_password": "密碼不合要求。",
    "error.bad_password.short": "密碼至少要 8 個字元。",
    "error.bad_password.long": "密碼太長了。",
    "error.wrong_login": "名字或密碼不對。",
    "error.too_many_attempts": "嘗試次數太多：請 {retry_after} 秒後再試。",
    "error.signup_closed": "本站已關閉註冊。",
    "error.not_signed_in": "請先登入。",
    "error.guests_unrated": "訪客不能下計分對局：請註冊或登入。",
    "error.bad_terms": "對局條件不合要求。",
    "error.bad_terms.initial": "起始用時須為 1 秒到 180 分鐘。",
    "error.bad_terms.increment": "每步加秒最多 180 秒。",
    "error.bad_terms.rated_needs_clock": "計分對局需要限時。",
    "error.bad_terms.side": "請選擇先手、後手或隨機。",
    "error.bad_terms.socket": "大廳頁面已重新載入：請再試一次。",
    "error.gone": "已經不存在了。",
    "error.own_seek": "這是你自己的約戰。",
    "error.too_many_seeks": "你發起的約戰太多了。",
    "error.unknown_player": "沒有名叫“{name}”的棋手。",
    "error.self_challenge": "不能挑戰自己。",
    "error.too_many_games": "新對局太多了：請稍等。",
    "error.database_unavailable": "資料庫暫時不可用，請再試一次。",
    "error.network": "無法連線伺服器。",
    "error.board": "棋盤無法繪製（{why}）。",
    "error.bad_position": "規則不接受此局面：{message}",
    "setup.board_size": "棋盤為 {size}，本棋應為 {want}",
    "setup.soldier_mark": "「{piece}」的寫法與兵卒所在位置不符，應寫作「{want}」",
    "setup.unknown_piece": "「{piece}」不是本棋的棋子",
    "setup.style": "棋風寫作 {style}，應寫作 {want}",
    "setup.no_general": "{side}沒有將帥",
    "setup.generals_count": "{side}有 {n} 個將帥，每方只能有一個",
    "setup.terminals_count": "{side}有 {n} 個將帥或龍，每方最多一個",
    "setup.general_outside_palace": "{side}的將帥在九宮之外",
    "setup.advisor_point": "{side}的士不能在此位置（只能在九宮四角和中心）",
    "setup.elephant_point": "{side}的象不能在此位置（只能在己方七個象位）",
    "setup.soldier_behind": "{side}的兵卒在起始線之後，兵卒永遠走不到那裡",
    "setup.not_to_move_in_check": "不走棋的一方（{side}）正被將軍（將帥在 {square}）：沒有合法著法能走成此局面",
    "setup.too_many_pieces": "棋盤和手中共有 {n} 枚棋子，多於 {squares} 個格子",
    "setup.dragon_with_general": "{dragon} 有龍而 {general} 有將：將會同時變成龍",
    "setup.generals_face": "{a} 和 {b} 的將帥對面：它們本該已變成龍",
    "setup.hand": "{side}的手中",
    "setup.hand_own": "「{piece}」是{side}自己的棋子：被吃的棋子進入吃子一方的手中，所以{side}手中只能有{other}的棋子",
    "setup.general_never_captured": "「{piece}」：標準規則下將帥永遠不會被吃",
    "setup.general_on_board": "「{piece}」：{other}的將帥仍在棋盤上",
    "setup.one_general": "「{piece}」：{other}只有一個將帥",
    "setup.capture_ends": "「{piece}」：吃掉將帥即終局，所以{side}的將帥不可能也不在棋盤上",
    "setup.terminal_on_board": "「{piece}」：{other}的將或龍仍在棋盤上（{square}）",
    "setup.one_terminal": "「{piece}」：{other}只有一個將或龍",
    "setup.terminal_capture_ends": "「{piece}」：吃掉將或龍即終局，所以{side}的將或龍不可能也不在棋盤上",
    "setup.terminal_kind": "「{piece}」：被吃的是{kind}，說明{side}的也是{kind}（將同時變成龍），但{side}的是{mine}",
    "setup.kind.general": "將",
    "setup.kind.dragon": "龍",
    "error.bad_game": "沒有這種棋。",
    "error.analysis_busy": "引擎繁忙：請 {retry_after} 秒後再試。",
    "error.game_not_over": "對局尚未結束。",
    "error.no_review": "此對局尚無覆盤。"
  };

  // src/lang/vi.ts
  var vi = {
    "nav.play": "Chơi",
    "nav.archive": "Kho ván cờ",
    "nav.leaderboard": "Bảng xếp hạng",
    "nav.analysis": "Phân tích",
    "nav.login": "Đăng nhập",
    "nav.signup": "Đăng ký",
    "nav.account": "Tài khoản",
    "nav.logout": "Đăng xuất",
    "nav.guest": "{name} (khách)",
    "nav.language": "Ngôn ngữ",
    "title.site": "chuhe — chơi cờ tướng và Xiongqi",
    "title.game": "{game} — chuhe",
    "title.turn": "{turn} — {game} — chuhe",
    "title.your_turn": "Đến lượt bạn — {game} — chuhe",
    "title.analysis": "Bàn phân tích — chuhe",
    "title.analysis_turn": "{turn} đi — phân tích {game} — chuhe",
    "title.editor": "Trình sửa bàn cờ — chuhe",
    "game.xiangqi": "Cờ tướng",
    "game.xiongqi": "Xiongqi",
    "game.xiangqi-capture": "Cờ tướng (luật ăn tướng)",
    "game.xiangqi.long": "Cờ tướng 象棋",
    "game.xiongqi.long": "Xiongqi 熊棋 (cờ gấu trúc)",
    "game.xiangqi-capture.long": "Cờ tướng, luật ăn tướng",
    "game.rules_long": "{name}, {files}×{ranks} (từ tệp luật)",
    "side.red": "Đỏ",
    "side.black": "Đen",
    "side.south": "Nam",
    "side.north": "Bắc",
    "speed.bullet": "Siêu chớp",
    "speed.blitz": "Chớp",
    "speed.rapid": "Nhanh",
    "speed.classical": "Tiêu chuẩn",
    "mode.rated": "Tính điểm",
    "mode.casual": "Giao hữu",
    "clock.none": "Không tính giờ",
    "color.first": "Đi trước (Đỏ)",
    "color.second": "Đi sau (Đen)",
    "color.random": "Ngẫu nhiên",
    "engine.name": "máy chuhe cấp {level}",
    "player.open_seat": "Đang chờ người chơi",
    "lobby.quick": "Ghép nhanh",
    "lobby.quick_help": "Chọn một mức thời gian: lời mời của bạn chờ đối thủ ở đây.",
    "lobby.create": "Tạo ván cờ",
    "lobby.seeks": "Sảnh chờ",
    "lobby.no_seeks": "Hiện chưa ai tìm ván. Hãy tạo một ván!",
    "lobby.player": "Người chơi",
    "lobby.rating": "Điểm",
    "lobby.time": "Thời gian",
    "lobby.mode": "Chế độ",
    "lobby.accept": "Chơi",
    "lobby.not_served": "Máy chủ này không có trò chơi này: hãy chơi trên máy chủ có nó.",
    "lobby.cancel": "Hủy",
    "lobby.your_seek": "lời mời của bạn",
    "lobby.seek": "Tìm ván",
    "lobby.rated_needs_account": "Ván tính điểm cần tài khoản: hãy đăng ký hoặc đăng nhập.",
    "lobby.challenges": "Thách đấu",
    "lobby.no_challenges": "Không có lời thách đấu.",
    "lobby.challenge_from": "{name} thách đấu bạn: {terms}",
    "lobby.challenge_to": "Bạn thách đấu {name}: {terms}",
    "lobby.challenge": "Thách đấu người chơi",
    "lobby.challenge_name": "Tên người chơi",
    "lobby.send_challenge": "Gửi lời thách đấu",
    "lobby.decline": "Từ chối",
    "lobby.playing": "Ván đang diễn ra",
    "lobby.no_playing": "Không có ván nào giữa người chơi đang diễn ra.",
    "lobby.spectators": "{n} người xem",
    "lobby.engine": "Chơi với máy",
    "lobby.engine_or_friend": "Chơi với máy hoặc với bạn",
    "lobby.friend": "Chơi với bạn",
    "lobby.friend_help": "Bạn nhận một đường dẫn để gửi; người đầu tiên mở nó sẽ chơi với bạn.",
    "lobby.import": "Nhập biên bản ván cờ",
    "lobby.import_help": "PGN, PCN, FEN hoặc FEEN, hoặc tệp XQF: mở ra bàn cờ để xem lại.",
    "lobby.import_file": "hoặc một tệp XQF",
    "lobby.imported_format": "Đã đọc dạng {format}.",
    "form.game": "Loại cờ",
    "form.opponent": "Đối thủ",
    "form.level": "Sức mạnh của máy",
    "form.side": "Bạn cầm",
    "form.clock": "Thời gian",
    "form.minutes": "Phút",
    "form.increment": "Cộng thêm (giây)",
    "form.rated": "Tính điểm",
    "form.position": "Bắt đầu từ một thế cờ (FEEN, hoặc FEN cho cờ tướng)",
    "form.start": "Bắt đầu ván cờ",
    "form.invite": "Tạo đường dẫn mời",
    "form.import": "Nhập",
    "form.name": "Tên",
    "form.password": "Mật khẩu",
    "form.new_password": "Mật khẩu mới",
    "form.old_password": "Mật khẩu hiện tại",
    "account.login": "Đăng nhập",
    "account.signup": "Đăng ký",
    "account.signup_closed": "Máy chủ này đã đóng đăng ký: hãy xin quản trị viên một tài khoản.",
    "account.signup_help": "2–24 ký tự, chữ gì cũng được (中文, Tiếng Việt…). Các ván chơi khi là khách vẫn là của bạn.",
    "account.have_account": "Đã có tài khoản? Đăng nhập",
    "account.need_account": "Chưa có tài khoản? Đăng ký",
    "account.title": "Tài khoản của bạn",
    "account.change_password": "Đổi mật khẩu",
    "account.password_changed": "Đã đổi mật khẩu; các phiên đăng nhập khác đã kết thúc.",
    "account.profile": "Trang của bạn",
    "play.your_move": "Đến lượt bạn ({side})",
    "play.to_move": "{side} đi",
    "play.watching": "{side} đi — bạn đang xem",
    "play.check": "chiếu tướng!",
    "play.thinking": "máy đang nghĩ…",
    "play.offers_draw": "{side} cầu hòa",
    "play.type_move": "Gõ nước đi",
    "play.play": "Đi",
    "play.resign": "Xin thua",
    "play.resign_confirm": "Xin thua ván này?",
    "play.abort": "Hủy ván",
    "play.offer_draw": "Cầu hòa",
    "play.accept_draw": "Đồng ý hòa",
    "play.decline": "Từ chối",
    "play.take_back": "Đi lại",
    "play.flip": "Xoay bàn cờ",
    "play.latin": "Chữ La-tinh",
    "play.sound_off": "Tắt âm thanh",
    "play.sound_on": "Bật âm thanh",
    "play.analyse": "Phân tích",
    "play.chinese": "Chữ Hán",
    "play.rematch": "Chơi lại",
    "play.rematch_offered": "Đã mời chơi lại…",
    "play.accept_rematch": "Đồng ý chơi lại",
    "play.rematch_from": "{side} mời chơi lại",
    "play.to_rematch": "Đến ván mới",
    "play.invite": "Gửi đường dẫn này cho bạn bè (người đầu tiên mở nó sẽ chơi với bạn):",
    "play.copy": "Sao chép",
    "play.copied": "Đã sao chép",
    "play.watch_link": "đường dẫn xem",
    "play.spectators": "Người xem:",
    "play.download_pcn": "tải PCN",
    "play.download_pgn": "tải PGN",
    "play.position": "Thế cờ",
    "play.game_over": "Ván cờ kết thúc: {text}",
    "play.seat_taken": "Chỗ ngồi đã có người khác: bạn đang xem.",
    "play.review": "Biên bản đã nhập: dùng các mũi tên để xem lại.",
    "play.first_move_within": "nước đầu trong vòng {time}",
    "play.promote": "Phong cấp cho tốt?",
    "play.promote_to": "Phong cấp thành quân nào?",
    "play.in_hand": "quân trong tay: {pieces}",
    "play.drop": "Thả quân {piece}: rồi chọn một ô được đánh dấu",
    "play.cancel": "Hủy",
    "play.ply": "{shown} / {total}",
    "play.start": "về đầu ván",
    "play.back": "lùi một nước",
    "play.forward": "tiến một nước",
    "play.now": "đến nước mới nhất",
    "play.board": "bàn cờ: nhấn Enter để dùng bàn phím (phím mũi tên di chuyển con trỏ, Enter chọn quân và ô đến, Escape để thoát); ←/→ xem lần lượt các nước",
    "play.moves": "các nước đi",
    "play.notation": "Ghi nước đi bằng",
    "notation.coords": "tọa độ",
    "notation.wxf": "tọa độ và WXF",
    "notation.chinese": "chữ Hán (炮二平五)",
    "play.casual": "Giao hữu",
    "analysis.title": "Phân tích",
    "analysis.eval_bar": "đánh giá thế cờ",
    "analysis.engine": "Máy",
    "analysis.lines": "Số biến",
    "analysis.promote": "Đặt làm biến chính",
    "analysis.delete": "Xoá từ nước này",
    "analysis.edit": "Sửa bàn cờ",
    "analysis.to_game": "Về ván cờ",
    "analysis.no_moves": "Hãy đi một quân trên bàn cờ, hoặc bấm vào một nước trong các biến của máy.",
    "analysis.disconnected": "máy: đang kết nối lại…",
    "analysis.off": "máy đã tắt",
    "analysis.over": "ván cờ đã kết thúc ở thế này",
    "analysis.starting": "máy: đang bắt đầu…",
    "analysis.queued": "máy: đang chờ (còn {ahead} lượt trước)",
    "analysis.depth": "độ sâu {depth} · {speed} nghìn nút/giây",
    "analysis.paused": "máy: tạm dừng cho một ván đấu, sẽ tiếp tục",
    "analysis.done": "máy: xong ở độ sâu {depth}",
    "analysis.error": "máy: bị từ chối",
    "analysis.depth_short": "đs {depth}",
    "review.title": "Máy phân tích ván cờ",
    "review.request": "Yêu cầu máy phân tích",
    "review.progress": "Đang phân tích: {done} / {total} thế cờ",
    "review.budget": "Mỗi thế cờ được tính {nodes} nút.",
    "review.chart": "đánh giá sau mỗi nước",
    "review.accuracy": "Độ chính xác",
    "review.inaccuracies": "Nước chưa chính xác",
    "review.mistakes": "Nước sai",
    "review.blunders": "Nước hỏng",
    "editor.title": "Trình sửa bàn cờ",
    "editor.board": "bàn cờ: bấm vào một ô để đặt quân đã chọn, bấm lần nữa để bỏ",
    "editor.game": "Loại cờ",
    "editor.turn": "Lượt đi",
    "editor.eraser": "Tẩy",
    "editor.start": "Thế ban đầu",
    "editor.clear": "Xoá bàn cờ",
    "editor.valid": "Luật chấp nhận thế cờ này.",
    "editor.analyse": "Phân tích thế cờ này",
    "play.rated": "Tính điểm",
    "result.checkmate": "{winner} thắng: chiếu hết",
    "result.stalemate": "{winner} thắng: {loser} hết nước đi",
    "result.nomove": "{winner} thắng: {loser} không còn nước đi",
    "result.bareking": "{winner} thắng: tướng trơ trọi",
    "result.mareking": "{winner} thắng: tướng của {loser} bị ăn",
    "result.mareking_rules": "{winner} thắng: {piece} của {loser} bị ăn",
    "result.resignation": "{winner} thắng: đối phương xin thua",
    "result.abandoned": "{winner} thắng: {loser} đã bỏ ván",
    "result.timelimit": "{winner} thắng: đối phương hết giờ",
    "result.illegalmove": "{winner} thắng: {loser} đi nước cấm",
    "result.repetition": "{winner} thắng: {loser} lặp lại thế cờ",
    "result.perpetual_check": "{winner} thắng: {loser} chiếu mãi",
    "result.perpetual_chase": "{winner} thắng: {loser} đuổi bắt mãi",
    "result.agreement": "{winner} thắng theo thỏa thuận",
    "result.movelimit": "{winner} thắng theo giới hạn nước đi",
    "result.insufficient": "{winner} thắng: {loser} không thể thắng",
    "result.win": "{winner} thắng",
    "draw.agreement": "Hòa theo thỏa thuận",
    "draw.repetition": "Hòa do lặp lại thế cờ",
    "draw.movelimit": "Hòa theo giới hạn nước đi",
    "draw.insufficient": "Hòa: không bên nào có thể thắng",
    "draw.stalemate": "Hòa do hết nước đi",
    "draw.other": "Hòa",
    "result.aborted": "Ván cờ đã bị hủy",
    "result.aborted_late": "Ván cờ đã bị hủy: {side} không đi nước đầu kịp giờ",
    "result.in_play": "đang chơi",
    "result.draw_short": "½–½",
    "notice.draw_declined": "{side} đã từ chối hòa",
    "archive.title": "Kho ván cờ",
    "archive.player": "Người chơi",
    "archive.vs": "Đối thủ",
    "archive.result": "Kết quả",
    "archive.since": "Từ",
    "archive.until": "Đến",
    "archive.tc": "Thời gian",
    "archive.rated": "Tính điểm",
    "archive.opponent": "Loại",
    "archive.any": "Tất cả",
    "archive.yes": "Có",
    "archive.no": "Không",
    "archive.filter": "Hiển thị",
    "archive.ongoing": "Đang chơi",
    "archive.finished": "Đã kết thúc",
    "archive.aborted": "Đã hủy",
    "archive.draws": "Hòa",
    "archive.wins": "Thắng (người chơi đó)",
    "archive.losses": "Thua (người chơi đó)",
    "archive.engine": "Với máy",
    "archive.friend": "Giữa người chơi",
    "archive.record": "Đã nhập",
    "archive.count": "Số ván tìm thấy: {n}",
    "archive.none": "Không có ván nào phù hợp.",
    "archive.prev": "Mới hơn",
    "archive.next": "Cũ hơn",
    "archive.moves": "số nước: {n}",
    "archive.open": "Mở",
    "profile.member_since": "Thành viên từ {date}",
    "profile.guest": "Khách (không có tài khoản)",
    "profile.ratings": "Điểm",
    "profile.no_ratings": "Chưa có ván tính điểm.",
    "profile.record": "Số ván: {games} — thắng {wins}, thua {losses}, hòa {draws}; đang chơi: {playing}",
    "profile.games": "Các ván gần đây",
    "profile.all_games": "Tất cả các ván",
    "profile.chart": "Diễn biến điểm",
    "profile.challenge": "Thách đấu {name}",
    "profile.games_count": "ván tính điểm: {n}",
    "leaderboard.title": "Bảng xếp hạng",
    "leaderboard.empty": "Chưa có ván tính điểm nào.",
    "leaderboard.rank": "#",
    "leaderboard.player": "Người chơi",
    "leaderboard.rating": "Điểm",
    "leaderboard.games": "Số ván",
    "error.game_over": "Ván cờ đã kết thúc.",
    "error.not_your_turn": "Chưa đến lượt bạn.",
    "error.engine_thinking": "Máy đang nghĩ; hãy chờ nước đi của nó.",
    "error.stale": "Ván cờ vừa thay đổi; đã tải lại.",
    "error.bad_move": "Không đọc được nước đi '{move}'.",
    "error.illegal_move": "Không thể đi '{move}'.",
    "error.illegal_move.no_piece": "'{move}': không có quân nào ở {square}.",
    "error.illegal_move.not_your_piece": "'{move}': quân ở {square} không phải của bạn.",
    "error.no_takeback": "Bạn không có nước nào để đi lại.",
    "error.no_takeback.engine_only": "Chỉ được đi lại khi chơi với máy.",
    "error.no_draw_offer": "Không có lời cầu hòa nào để trả lời.",
    "error.draw_offered": "Bạn đã cầu hòa rồi.",
    "error.cannot_abort": "Cả hai bên đã đi: hãy xin thua thay vì hủy.",
    "error.not_over": "Ván cờ chưa kết thúc.",
    "error.no_rematch_offer": "Không có lời mời chơi lại nào để trả lời.",
    "error.rematch_made": "Ván chơi lại đã được tạo.",
    "error.review_only": "Biên bản đã nhập chỉ để xem lại, không để chơi.",
    "error.forbidden": "Chỉ người chơi của ván mới làm được việc này.",
    "error.seat_taken": "Chỗ ngồi đã có người khác: bạn đang xem.",
    "error.bad_invite": "Đường dẫn mời này không dành cho ván cờ này.",
    "error.not_found": "Không tìm thấy.",
    "error.game_not_served": "Ván này là {game}, nhưng máy chủ lần này không được khởi động với luật của nó. Ván được giữ nguyên và có thể chơi tiếp khi máy chủ khởi động với --rules cho nó.",
    "error.rules_changed": "Ván {game} này không còn diễn lại được theo luật mà máy chủ đang dùng: các tệp luật của nó đã thay đổi sau khi ván được chơi. Ván được giữ nguyên và có thể chơi tiếp khi máy chủ khởi động với đúng luật mà ván đã chơi.",
    "error.bad_name": "Tên không hợp lệ.",
    "error.bad_name.length": "Tên phải có từ 2 đến 24 ký tự.",
    "error.bad_name.invisible": "Tên có ký tự vô hình hoặc ký tự điều khiển.",
    "error.bad_name.spaces": "Tên có hai khoảng trắng liền nhau.",
    "error.bad_name.no_letter": "Tên cần có ít nhất một chữ hoặc một số.",
    "error.bad_name.guest_prefix": "Tên không được bắt đầu bằng 'Guest-'.",
    "error.name_taken": "Tên '{name}' đã có người dùng.",
    "error.bad_password": "Mật khẩu không hợp lệ.",
    "error.bad_password.short": "Mật khẩu cần ít nhất 8 ký tự.",
    "error.bad_password.long": "Mật khẩu quá dài.",
    "error.wrong_login": "Sai tên hoặc mật khẩu.",
    "error.too_many_attempts": "Thử quá nhiều lần: hãy thử lại sau {retry_after} giây.",
    "error.signup_closed": "Máy chủ này đã đóng đăng ký.",
    "error.not_signed_in": "Hãy đăng nhập trước.",
    "error.guests_unrated": "Khách không thể chơi ván tính điểm: hãy đăng ký hoặc đăng nhập.",
    "error.bad_terms": "Điều kiện ván cờ không hợp lệ.",
    "error.bad_terms.initial": "Thời gian ban đầu phải từ 1 giây đến 180 phút.",
    "error.bad_terms.increment": "Thời gian cộng thêm tối đa 180 giây.",
    "error.bad_terms.rated_needs_clock": "Ván tính điểm cần tính giờ.",
    "error.bad_terms.side": "Hãy chọn đi trước, đi sau hoặc ngẫu nhiên.",
    "error.bad_terms.socket": "Trang sảnh chờ đã được tải lại: hãy thử lại.",
    "error.gone": "Nó không còn nữa.",
    "error.own_seek": "Đây là lời mời của chính bạn.",
    "error.too_many_seeks": "Bạn đang có quá nhiều lời mời.",
    "error.unknown_player": "Không có người chơi nào tên '{name}'.",
    "error.self_challenge": "Bạn không thể thách đấu chính mình.",
    "error.too_many_games": "Quá nhiều ván mới: hãy chờ một chút.",
    "error.database_unavailable": "Cơ sở dữ liệu tạm thời không dùng được; hãy thử lại.",
    "error.network": "Không kết nối được máy chủ.",
    "error.board": "Không vẽ được bàn cờ ({why}).",
    "error.bad_position": "Luật không chấp nhận thế cờ này: {message}",
    "setup.board_size": "bàn cờ có kích thước {size}; trò chơi này chơi trên {want}",
    "setup.soldier_mark": "“{piece}” viết không đúng với vị trí của quân tốt; hãy viết “{want}”",
    "setup.unknown_piece": "“{piece}” không phải là quân của trò chơi này",
    "setup.style": "kiểu được viết là {style}; hãy viết {want}",
    "setup.no_general": "bên {side} không có tướng",
    "setup.generals_count": "bên {side} có {n} tướng; mỗi bên có đúng một",
    "setup.terminals_count": "bên {side} có {n} tướng hoặc rồng; mỗi bên có nhiều nhất một",
    "setup.general_outside_palace": "tướng của bên {side} đứng ngoài cung",
    "setup.advisor_point": "sĩ của bên {side} không bao giờ đứng được ở đây (chỉ ở bốn góc và tâm cung)",
    "setup.elephant_point": "tượng của bên {side} không bao giờ đứng được ở đây (chỉ ở bảy điểm bên mình)",
    "setup.soldier_behind": "tốt của bên {side} đứng sau hàng xuất phát, nơi nó không bao giờ đến được",
    "setup.not_to_move_in_check": "bên không đi ({side}) đang bị chiếu (tướng ở {square}): không nước đi hợp lệ nào dẫn đến thế cờ này",
    "setup.too_many_pieces": "{n} quân trên bàn và trong tay, nhiều hơn {squares} ô",
    "setup.dragon_with_general": "rồng ở {dragon} cùng tướng ở {general}: các tướng hóa rồng cùng lúc",
    "setup.generals_face": "hai tướng ở {a} và {b} đối mặt nhau: lẽ ra chúng đã hóa rồng",
    "setup.hand": "tay của bên {side}",
    "setup.hand_own": "“{piece}” là quân của chính bên {side}: quân bị ăn vào tay bên ăn, nên tay bên {side} chỉ có quân của bên {other}",
    "setup.general_never_captured": "“{piece}”: theo luật chuẩn, tướng không bao giờ bị ăn",
    "setup.general_on_board": "“{piece}”: tướng của bên {other} vẫn còn trên bàn cờ",
    "setup.one_general": "“{piece}”: bên {other} chỉ có một tướng",
    "setup.capture_ends": "“{piece}”: ăn tướng là hết ván, nên tướng của bên {side} không thể cũng vắng mặt trên bàn cờ",
    "setup.terminal_on_board": "“{piece}”: tướng hoặc rồng của bên {other} vẫn còn trên bàn cờ ({square})",
    "setup.one_terminal": "“{piece}”: bên {other} chỉ có một tướng hoặc rồng",
    "setup.terminal_capture_ends": "“{piece}”: ăn tướng hoặc rồng là hết ván, nên quân đó của bên {side} không thể cũng vắng mặt trên bàn cờ",
    "setup.terminal_kind": "“{piece}”: quân bị ăn là {kind} nghĩa là của bên {side} cũng là {kind} (các tướng hóa rồng cùng lúc), nhưng của bên {side} là {mine}",
    "setup.kind.general": "tướng",
    "setup.kind.dragon": "rồng",
    "error.bad_game": "Không có loại cờ này.",
    "error.analysis_busy": "Máy đang bận: thử lại sau {retry_after} giây.",
    "error.game_not_over": "Ván cờ chưa kết thúc.",
    "error.no_review": "Ván cờ này chưa được phân tích."
  };

  // src/i18n.ts
  var en = {
    // header and navigation
    "nav.play": "Play",
    "nav.archive": "Archive",
    "nav.leaderboard": "Leaderboard",
    "nav.analysis": "Analysis",
    "nav.login": "Log in",
    "nav.signup": "Sign up",
    "nav.account": "Account",
    "nav.logout": "Log out",
    "nav.guest": "{name} (guest)",
    "nav.language": "Language",
    "title.site": "chuhe — play Xiangqi and Xiongqi",
    "title.game": "{game} — chuhe",
    "title.turn": "{turn} — {game} — chuhe",
    "title.your_turn": "Your move — {game} — chuhe",
    "title.analysis": "Analysis board — chuhe",
    "title.analysis_turn": "{turn} to move — analysis of {game} — chuhe",
    "title.editor": "Board editor — chuhe",
    // games and sides
    "game.xiangqi": "Xiangqi",
    "game.xiongqi": "Xiongqi",
    "game.xiangqi-capture": "Xiangqi (capture rules)",
    "game.xiangqi.long": "Xiangqi 象棋",
    "game.xiongqi.long": "Xiongqi 熊棋",
    "game.xiangqi-capture.long": "Xiangqi, capture-the-king rules",
    "game.rules_long": "{name}, {files}×{ranks} (from rule files)",
    "side.red": "Red",
    "side.black": "Black",
    "side.south": "South",
    "side.north": "North",
    "speed.bullet": "Bullet",
    "speed.blitz": "Blitz",
    "speed.rapid": "Rapid",
    "speed.classical": "Classical",
    "mode.rated": "Rated",
    "mode.casual": "Casual",
    "clock.none": "No clock",
    "color.first": "First (Red, moves first)",
    "color.second": "Second (Black)",
    "color.random": "Random",
    "engine.name": "chuhe level {level}",
    "player.open_seat": "Waiting for a player",
    // lobby
    "lobby.quick": "Quick pairing",
    "lobby.quick_help": "Click a time control: your seek waits here for an opponent.",
    "lobby.create": "Create a game",
    "lobby.seeks": "Lobby",
    "lobby.no_seeks": "No one is seeking a game right now. Create one!",
    "lobby.player": "Player",
    "lobby.rating": "Rating",
    "lobby.time": "Time",
    "lobby.mode": "Mode",
    "lobby.accept": "Play",
    "lobby.not_served": "This server does not offer this game: play it on a server that does.",
    "lobby.cancel": "Cancel",
    "lobby.your_seek": "your seek",
    "lobby.seek": "Seek a game",
    "lobby.rated_needs_account": "Rated games need an account: sign up or log in.",
    "lobby.challenges": "Challenges",
    "lobby.no_challenges": "No challenges.",
    "lobby.challenge_from": "{name} challenges you: {terms}",
    "lobby.challenge_to": "You challenge {name}: {terms}",
    "lobby.challenge": "Challenge a player",
    "lobby.challenge_name": "Player's name",
    "lobby.send_challenge": "Send the challenge",
    "lobby.decline": "Decline",
    "lobby.playing": "Games being played",
    "lobby.no_playing": "No game between players is going on.",
    "lobby.spectators": "{n} watching",
    "lobby.engine": "Play the engine",
    "lobby.engine_or_friend": "Play the engine or a friend",
    "lobby.friend": "Play a friend",
    "lobby.friend_help": "You get a link to send; the first person to open it plays you.",
    "lobby.import": "Import a game record",
    "lobby.import_help": "PGN, PCN, a FEN or FEEN, or an XQF file: it opens as a board to replay.",
    "lobby.import_file": "or an XQF file",
    "lobby.imported_format": "Read as {format}.",
    // forms
    "form.game": "Game",
    "form.opponent": "Opponent",
    "form.level": "Engine strength",
    "form.side": "You play",
    "form.clock": "Clock",
    "form.minutes": "Minutes",
    "form.increment": "Increment (s)",
    "form.rated": "Rated",
    "form.position": "Start from a position (FEEN, or FEN for Xiangqi)",
    "form.start": "Start the game",
    "form.invite": "Create the invite link",
    "form.import": "Import",
    "form.name": "Name",
    "form.password": "Password",
    "form.new_password": "New password",
    "form.old_password": "Current password",
    // accounts
    "account.login": "Log in",
    "account.signup": "Sign up",
    "account.signup_closed": "Sign-up is closed on this server: ask its administrator for an account.",
    "account.signup_help": "2–24 characters; any script (中文, Tiếng Việt…). Your guest games stay yours.",
    "account.have_account": "Have an account? Log in",
    "account.need_account": "No account? Sign up",
    "account.title": "Your account",
    "account.change_password": "Change the password",
    "account.password_changed": "The password is changed; your other sessions are ended.",
    "account.profile": "Your profile",
    // game page
    "play.your_move": "Your move ({side})",
    "play.to_move": "{side} to move",
    "play.watching": "{side} to move — you are watching",
    "play.check": "check!",
    "play.thinking": "the engine is thinking…",
    "play.offers_draw": "{side} offers a draw",
    "play.type_move": "Type a move",
    "play.play": "Play",
    "play.resign": "Resign",
    "play.resign_confirm": "Resign this game?",
    "play.abort": "Abort",
    "play.offer_draw": "Offer a draw",
    "play.accept_draw": "Accept the draw",
    "play.decline": "Decline",
    "play.take_back": "Take back",
    "play.flip": "Flip board",
    "play.latin": "Latin letters",
    "play.sound_off": "Sound off",
    "play.sound_on": "Sound on",
    "play.analyse": "Analyse",
    "play.chinese": "Chinese characters",
    "play.rematch": "Rematch",
    "play.rematch_offered": "Rematch offered…",
    "play.accept_rematch": "Accept the rematch",
    "play.rematch_from": "{side} offers a rematch",
    "play.to_rematch": "Go to the rematch",
    "play.invite": "Send this link to your friend (the first to open it plays you):",
    "play.copy": "Copy",
    "play.copied": "Copied",
    "play.watch_link": "watch link",
    "play.spectators": "Spectators:",
    "play.download_pcn": "download PCN",
    "play.download_pgn": "download PGN",
    "play.position": "Position",
    "play.game_over": "Game over: {text}",
    "play.seat_taken": "Someone else took the seat: you are watching.",
    "play.review": "Imported record: replay it with the arrows.",
    "play.first_move_within": "first move within {time}",
    "play.promote": "Promote the soldier?",
    "play.promote_to": "Promote into which piece?",
    "play.in_hand": "in hand: {pieces}",
    "play.drop": "Drop {piece}: then pick a marked square",
    "play.cancel": "Cancel",
    "play.ply": "{shown} / {total}",
    "play.start": "go to the start",
    "play.back": "one move back",
    "play.forward": "one move forward",
    "play.now": "go to the last move",
    "play.board": "board: Enter to use the keyboard (arrow keys move the cursor, Enter picks a piece and its destination, Escape leaves); ←/→ step through the moves",
    "play.moves": "moves",
    "play.notation": "Moves in",
    "notation.coords": "coordinates",
    "notation.wxf": "coordinates and WXF",
    "notation.chinese": "Chinese (炮二平五)",
    "play.casual": "Casual",
    "analysis.title": "Analysis",
    "analysis.eval_bar": "evaluation",
    "analysis.engine": "Engine",
    "analysis.lines": "Lines",
    "analysis.promote": "Make main line",
    "analysis.delete": "Delete from here",
    "analysis.edit": "Edit the board",
    "analysis.to_game": "Back to the game",
    "analysis.no_moves": "Move a piece on the board, or click a move of the engine's lines.",
    "analysis.disconnected": "engine: reconnecting…",
    "analysis.off": "engine off",
    "analysis.over": "the game is over here",
    "analysis.starting": "engine: starting…",
    "analysis.queued": "engine: waiting ({ahead} ahead)",
    "analysis.depth": "depth {depth} · {speed} k nodes/s",
    "analysis.paused": "engine: paused for a game, back soon",
    "analysis.done": "engine: finished at depth {depth}",
    "analysis.error": "engine: refused",
    "analysis.depth_short": "d{depth}",
    "review.title": "Computer review",
    "review.request": "Request a computer review",
    "review.progress": "Reviewing: {done} of {total} positions",
    "review.budget": "Each position searched to {nodes} nodes.",
    "review.chart": "evaluation after each move",
    "review.accuracy": "Accuracy",
    "review.inaccuracies": "Inaccuracies",
    "review.mistakes": "Mistakes",
    "review.blunders": "Blunders",
    "editor.title": "Board editor",
    "editor.board": "board: click a square to put the chosen piece there, again to take it off",
    "editor.game": "Game",
    "editor.turn": "Side to move",
    "editor.eraser": "Eraser",
    "editor.start": "Start position",
    "editor.clear": "Clear the board",
    "editor.valid": "The rules accept this position.",
    "editor.analyse": "Analyse this position",
    "play.rated": "Rated",
    // results
    "result.checkmate": "{winner} wins by checkmate",
    "result.stalemate": "{winner} wins: {loser} has no legal move (stalemate)",
    "result.nomove": "{winner} wins: {loser} has no legal move",
    "result.bareking": "{winner} wins by bare king",
    "result.mareking": "{winner} wins: {loser}'s general was captured",
    "result.mareking_rules": "{winner} wins: {loser}'s {piece} was captured",
    "result.resignation": "{winner} wins by resignation",
    "result.abandoned": "{winner} wins: {loser} left the game",
    "result.timelimit": "{winner} wins on time",
    "result.illegalmove": "{winner} wins: {loser} made a forbidden move",
    "result.repetition": "{winner} wins: {loser} repeated a position",
    "result.perpetual_check": "{winner} wins: {loser} checked perpetually",
    "result.perpetual_chase": "{winner} wins: {loser} chased perpetually",
    "result.agreement": "{winner} wins by agreement",
    "result.movelimit": "{winner} wins by the move limit",
    "result.insufficient": "{winner} wins: {loser} cannot win",
    "result.win": "{winner} wins",
    "draw.agreement": "Draw by agreement",
    "draw.repetition": "Draw by repetition",
    "draw.movelimit": "Draw by the move limit",
    "draw.insufficient": "Draw: neither side can win",
    "draw.stalemate": "Draw by stalemate",
    "draw.other": "Draw",
    "result.aborted": "Game aborted",
    "result.aborted_late": "Game aborted: {side} did not make a first move in time",
    "result.in_play": "in play",
    "result.draw_short": "½–½",
    "notice.draw_declined": "{side} declined the draw",
    // archive
    "archive.title": "Archive",
    "archive.player": "Player",
    "archive.vs": "Against",
    "archive.result": "Result",
    "archive.since": "From",
    "archive.until": "To",
    "archive.tc": "Time control",
    "archive.rated": "Rated",
    "archive.opponent": "Kind",
    "archive.any": "Any",
    "archive.yes": "Yes",
    "archive.no": "No",
    "archive.filter": "Show",
    "archive.ongoing": "In play",
    "archive.finished": "Finished",
    "archive.aborted": "Aborted",
    "archive.draws": "Draws",
    "archive.wins": "Won (by the player)",
    "archive.losses": "Lost (by the player)",
    "archive.engine": "Against the engine",
    "archive.friend": "Between players",
    "archive.record": "Imported",
    "archive.count": "Games found: {n}",
    "archive.none": "No game matches.",
    "archive.prev": "Newer",
    "archive.next": "Older",
    "archive.moves": "moves: {n}",
    "archive.open": "Open",
    // profiles and leaderboard
    "profile.member_since": "Member since {date}",
    "profile.guest": "A guest (no account)",
    "profile.ratings": "Ratings",
    "profile.no_ratings": "No rated game yet.",
    "profile.record": "Games: {games} — won {wins}, lost {losses}, drawn {draws}; in play: {playing}",
    "profile.games": "Recent games",
    "profile.all_games": "All games",
    "profile.chart": "Rating history",
    "profile.challenge": "Challenge {name}",
    "profile.games_count": "rated games: {n}",
    "leaderboard.title": "Leaderboard",
    "leaderboard.empty": "No rated games have been played yet.",
    "leaderboard.rank": "#",
    "leaderboard.player": "Player",
    "leaderboard.rating": "Rating",
    "leaderboard.games": "Games",
    // errors by code
    "error.game_over": "The game is over.",
    "error.not_your_turn": "It is not your move.",
    "error.engine_thinking": "The engine is thinking; wait for its move.",
    "error.stale": "The game changed meanwhile; it has been reloaded.",
    "error.bad_move": "Cannot read the move '{move}'.",
    "error.illegal_move": "'{move}' cannot be played.",
    "error.illegal_move.no_piece": "'{move}': there is no piece on {square}.",
    "error.illegal_move.not_your_piece": "'{move}': the piece on {square} is not yours.",
    "error.no_takeback": "You have no move to take back.",
    "error.no_takeback.engine_only": "Moves can be taken back only against the engine.",
    "error.no_draw_offer": "There is no draw offer to answer.",
    "error.draw_offered": "You have offered a draw already.",
    "error.cannot_abort": "Both sides have moved: resign instead.",
    "error.not_over": "The game is not over yet.",
    "error.no_rematch_offer": "There is no rematch offer to answer.",
    "error.rematch_made": "The rematch has been made already.",
    "error.review_only": "An imported record is replayed, not played.",
    "error.forbidden": "Only the game's players can do this.",
    "error.seat_taken": "Someone else took the seat: you are watching.",
    "error.bad_invite": "This invite link is not valid for this game.",
    "error.not_found": "Not found.",
    "error.game_not_served": "This game is of {game}, whose rules this server was not started with. It is kept unchanged and can be played again once the server is started with --rules for it.",
    "error.rules_changed": "This game of {game} no longer replays under the rules this server was started with: its rule files changed after it was played. It is kept unchanged and can be played again once the server is started with the rules it was played under.",
    "error.bad_name": "The name {why}.",
    "error.bad_name.length": "The name must have 2 to 24 characters.",
    "error.bad_name.invisible": "The name has an invisible or control character.",
    "error.bad_name.spaces": "The name has two spaces in a row.",
    "error.bad_name.no_letter": "The name needs a letter or a digit.",
    "error.bad_name.guest_prefix": "The name may not begin with 'Guest-'.",
    "error.name_taken": "The name '{name}' is taken.",
    "error.bad_password": "The password {why}.",
    "error.bad_password.short": "The password needs 8 characters or more.",
    "error.bad_password.long": "The password is too long.",
    "error.wrong_login": "Wrong name or password.",
    "error.too_many_attempts": "Too many attempts: try again in {retry_after} s.",
    "error.signup_closed": "Sign-up is closed on this server.",
    "error.not_signed_in": "Log in first.",
    "error.guests_unrated": "Guests cannot play rated games: sign up or log in.",
    "error.bad_terms": "{why}",
    "error.bad_terms.initial": "The clock must start with 1 second to 180 minutes.",
    "error.bad_terms.increment": "The increment may be at most 180 seconds.",
    "error.bad_terms.rated_needs_clock": "A rated game needs a clock.",
    "error.bad_terms.side": "Choose a side: first, second or random.",
    "error.bad_terms.socket": "The lobby page was reloaded: try again.",
    "error.gone": "It is no longer open.",
    "error.own_seek": "This is your own seek.",
    "error.too_many_seeks": "You have too many seeks open.",
    "error.unknown_player": "No player is named '{name}'.",
    "error.self_challenge": "You cannot challenge yourself.",
    "error.too_many_games": "Too many new games: wait a little.",
    "error.database_unavailable": "The database is away for a moment; try again.",
    "error.network": "The server cannot be reached.",
    "error.board": "The board could not be drawn ({why}).",
    "error.bad_position": "The rules refuse this position: {message}",
    "setup.board_size": "the board is {size}; the game is played on {want}",
    "setup.soldier_mark": "'{piece}' is not how a soldier standing here is written; write '{want}'",
    "setup.unknown_piece": "'{piece}' is not a piece of this game",
    "setup.style": "the style is written {style}; write {want}",
    "setup.no_general": "{side} has no general",
    "setup.generals_count": "{side} has {n} generals; a side has exactly one",
    "setup.terminals_count": "{side} has {n} generals or dragons; a side has at most one",
    "setup.general_outside_palace": "{side}'s general stands outside its palace",
    "setup.advisor_point": "{side}'s advisor can never stand here (only on the palace's corners and centre)",
    "setup.elephant_point": "{side}'s elephant can never stand here (only on its seven points on its own side)",
    "setup.soldier_behind": "{side}'s soldier stands behind its start rank, where it can never go",
    "setup.not_to_move_in_check": "{side}, not to move, is in check (its general on {square}): no legal move leads here",
    "setup.too_many_pieces": "{n} pieces on the board and in hands, more than its {squares} squares",
    "setup.dragon_with_general": "a dragon on {dragon} and a general on {general}: generals turn into dragons together",
    "setup.generals_face": "the generals on {a} and {b} face each other: they would already be dragons",
    "setup.hand": "{side}'s hand",
    "setup.hand_own": "'{piece}' is {side}'s own: a captured piece goes to the capturer's hand, so {side}'s hand holds only {other}'s pieces",
    "setup.general_never_captured": "'{piece}': a general is never captured under the standard rules",
    "setup.general_on_board": "'{piece}': {other}'s general is still on the board",
    "setup.one_general": "'{piece}': {other} has only one general",
    "setup.capture_ends": "'{piece}': capturing a general ends the game, so {side}'s general cannot be missing from the board too",
    "setup.terminal_on_board": "'{piece}': {other}'s general or dragon is still on the board ({square})",
    "setup.one_terminal": "'{piece}': {other} has only one general or dragon",
    "setup.terminal_capture_ends": "'{piece}': capturing a general or dragon ends the game, so {side}'s cannot be missing from the board too",
    "setup.terminal_kind": "'{piece}': a captured {kind} means {side}'s own was a {kind} too (generals turn into dragons together), but {side}'s is a {mine}",
    "setup.kind.general": "general",
    "setup.kind.dragon": "dragon",
    "error.bad_game": "No such game.",
    "error.analysis_busy": "The engine is busy: try again in {retry_after} s.",
    "error.game_not_over": "The game is not over yet.",
    "error.no_review": "This game has no review yet."
  };
  var LANGUAGES = [
    ["en", "English"],
    ["zh-Hans", "简体中文"],
    ["zh-Hant", "繁體中文"],
    ["vi", "Tiếng Việt"]
  ];
  var catalogues = { en, "zh-Hans": zhHans, "zh-Hant": zhHant, vi };
  var current = en;
  var tag = "en";
  function language() {
    return tag;
  }
  function setLanguage(wanted) {
    tag = catalogues[wanted] ? wanted : "en";
    current = catalogues[tag];
    document.documentElement.lang = tag;
  }
  function chooseLanguage(wanted) {
    document.cookie = `chuhe_lang=${encodeURIComponent(wanted)}; Path=/; Max-Age=31536000; SameSite=Lax`;
    location.reload();
  }
  function t(key, params = {}) {
    const text = current[key] ?? en[key] ?? key;
    return text.replace(/\{(\w+)\}/g, (_, name) => name in params ? String(params[name]) : `{${name}}`);
  }
  function has(key) {
    return key in en;
  }

  // src/kinds.ts
  var offered = [];
  async function loadKinds() {
    try {
      offered = (await api("GET", "/api/kinds")).kinds;
    } catch {
      offered = [];
    }
  }
  function rulesKinds() {
    return offered.filter((k) => !k.native);
  }
  function kindOf(name) {
    return offered.find((k) => k.name === name);
  }
  function isRules(name) {
    const kind = kindOf(name);
    return !!kind && !kind.native;
  }
  function hasGlyphs(name) {
    const kind = kindOf(name);
    return !kind || kind.native || kind.pieces.some((p) => p.chinese);
  }
  function royalName(name) {
    const kind = kindOf(name);
    if (!kind || kind.native) return null;
    return kind.pieces.find((p) => p.royal)?.name ?? null;
  }
  function ratedAllowed(name) {
    return kindOf(name)?.rated ?? true;
  }
  function promotionLabel(game, uci) {
    const kind = kindOf(game);
    const letter = uci.match(/[a-z]$/)?.[0]?.toUpperCase();
    if (!kind || kind.native || !letter) return null;
    const piece = kind.pieces.find((p) => p.letter === letter);
    return piece ? `${letter} (${piece.name})` : letter;
  }

  // src/notation.ts
  var NOTATIONS = ["wxf", "coords", "chinese"];
  var TRADITIONAL = { 车: "車", 马: "馬", 帅: "帥", 将: "將", 进: "進", 后: "後" };
  function chosenNotation() {
    const kept = localStorage.getItem("chuhe.notation");
    if (kept && NOTATIONS.includes(kept)) return kept;
    return language().startsWith("zh") ? "chinese" : "wxf";
  }
  function notationSelect(changed2) {
    const select2 = h("select", { id: "notation" }, ...NOTATIONS.map((n) => h("option", { value: n }, t(`notation.${n}`))));
    select2.value = chosenNotation();
    select2.addEventListener("change", () => {
      localStorage.setItem("chuhe.notation", select2.value);
      changed2(select2.value);
    });
    return h("label", { className: "notation-choice" }, t("play.notation"), " ", select2);
  }
  function coordinates(pmn) {
    return pmn.replace(/^([a-z]+\d+)\+/, "$1x");
  }
  function moveText(texts, coords, notation) {
    if (notation === "chinese" && texts.chinese) {
      const text = texts.chinese;
      return language() === "zh-Hant" ? [...text].map((c) => TRADITIONAL[c] ?? c).join("") : text;
    }
    if (notation === "coords") return coords;
    return coords + (texts.wxf ? ` (${texts.wxf})` : "");
  }
  function lineText(pv, notation) {
    const pmn = pv.pmn || pv.uci || [];
    return pmn.map((m, i) => {
      if (notation === "chinese" && pv.chinese) return moveText({ chinese: pv.chinese[i] }, coordinates(m), notation);
      if (notation === "wxf" && pv.wxf) return pv.wxf[i];
      return coordinates(m);
    });
  }

  // src/sound.ts
  var context = null;
  function soundOn() {
    return localStorage.getItem("chuhe.sound") !== "off";
  }
  function setSoundOn(on) {
    localStorage.setItem("chuhe.sound", on ? "on" : "off");
  }
  function wake() {
    if (context || typeof AudioContext === "undefined") return;
    try {
      context = new AudioContext();
    } catch {
      context = null;
    }
  }
  for (const kind of ["pointerdown", "keydown"]) window.addEventListener(kind, wake, { once: true, capture: true });
  var NOTES = {
    move: [[520, 0, 0.07, 0.25]],
    capture: [
      [300, 0, 0.09, 0.35],
      [180, 0.04, 0.12, 0.3]
    ],
    check: [
      [880, 0, 0.1, 0.2],
      [660, 0.11, 0.14, 0.2]
    ],
    end: [
      [523, 0, 0.25, 0.18],
      [659, 0.08, 0.25, 0.16],
      [784, 0.16, 0.35, 0.16]
    ]
  };
  function playSound(kind) {
    if (!soundOn()) return;
    document.body.dataset.sound = kind;
    const ctx = context;
    if (!ctx) return;
    const now = ctx.currentTime;
    for (const [frequency, start, length, loudness] of NOTES[kind]) {
      const oscillator = ctx.createOscillator();
      const gain = ctx.createGain();
      oscillator.type = kind === "capture" ? "triangle" : "sine";
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0, now + start);
      gain.gain.linearRampToValueAtTime(loudness, now + start + 0.01);
      gain.gain.exponentialRampToValueAtTime(1e-3, now + start + length);
      oscillator.connect(gain).connect(ctx.destination);
      oscillator.start(now + start);
      oscillator.stop(now + start + length + 0.02);
    }
  }

  // src/words.ts
  var other = (side) => side === "first" ? "second" : "first";
  function sideName(game, side) {
    if (game === "xiongqi") return t(side === "first" ? "side.south" : "side.north");
    return t(side === "first" ? "side.red" : "side.black");
  }
  function gameName(game) {
    const key = `game.${game}`;
    return has(key) ? t(key) : game.charAt(0).toUpperCase() + game.slice(1);
  }
  function resultText(game, result, turn) {
    if (result.status === "aborted") {
      if (result.reason === "no_first_move" && turn) return t("result.aborted_late", { side: sideName(game, turn) });
      return t("result.aborted");
    }
    if (result.winner === "none") {
      const key2 = `draw.${result.status}`;
      return t(has(key2) ? key2 : "draw.other");
    }
    const winner = sideName(game, result.winner);
    const loser = sideName(game, other(result.winner));
    let key = `result.${result.status}`;
    const royal = royalName(game);
    if (result.status === "mareking" && royal) return t("result.mareking_rules", { winner, loser, piece: royal });
    if (result.reason === "abandoned") key = "result.abandoned";
    else if (result.reason === "perpetual check") key = "result.perpetual_check";
    else if (result.reason === "perpetual chase") key = "result.perpetual_chase";
    return t(has(key) ? key : "result.win", { winner, loser });
  }
  function score(result) {
    if (!result) return "*";
    if (result.status === "aborted") return "–";
    if (result.winner === "first") return "1–0";
    if (result.winner === "second") return "0–1";
    return t("result.draw_short");
  }
  function clockText(clock) {
    if (!clock) return t("clock.none");
    const minutes = clock.initial_ms / 6e4;
    const base = minutes === 0.5 ? "½" : minutes === 0.25 ? "¼" : String(Math.round(minutes * 100) / 100);
    return `${base}+${Math.round(clock.increment_ms / 100) / 10}`;
  }
  function problemText(game, p) {
    const key = `setup.${p.code}`;
    if (!has(key)) return p.message;
    const params = { ...p.params };
    for (const name of ["side", "other"]) {
      if (params[name] === "first" || params[name] === "second") params[name] = sideName(game, params[name]);
    }
    for (const name of ["kind", "mine"]) {
      if (params[name] && has(`setup.kind.${params[name]}`)) params[name] = t(`setup.kind.${params[name]}`);
    }
    const what = t(key, params);
    const hand = /^(first|second) hand$/.exec(p.location);
    if (hand) return `${t("setup.hand", { side: sideName(game, hand[1]) })}: ${what}`;
    if (/^[a-l]\d+$/.test(p.location)) return `${p.location}: ${what}`;
    return what;
  }
  function errorText(e) {
    if (!(e instanceof ApiFailure)) return String(e?.message ?? e);
    const params = e.params;
    const problems = params.problems;
    if (e.code === "bad_position" && problems?.length) {
      const game = String(params.game ?? "");
      return t("error.bad_position", { message: problems.map((p) => problemText(game, p)).join("; ") });
    }
    const reason = params.reason ? `error.${e.code}.${params.reason}` : "";
    if (reason && has(reason)) return t(reason, params);
    const key = `error.${e.code}`;
    if (has(key)) return t(key, params);
    return e.message;
  }
  function day(ms) {
    return new Date(ms).toLocaleDateString(document.documentElement.lang || void 0, {
      year: "numeric",
      month: "short",
      day: "numeric"
    });
  }

  // src/analysis.ts
  var SYMBOL = { best: "", good: "", inaccuracy: "?!", mistake: "?", blunder: "??" };
  var view = {
    game: "xiangqi",
    start: "start",
    gameId: null,
    root: null,
    node: null,
    position: null,
    positions: /* @__PURE__ */ new Map(),
    request: 0,
    board: null,
    flipped: false,
    glyphs: localStorage.getItem("chuhe.glyphs") || "chinese",
    notation: "wxf",
    engineOn: localStorage.getItem("chuhe.engine") !== "off",
    multipv: Number(localStorage.getItem("chuhe.multipv")) || 3,
    socket: null,
    searchId: 0,
    lines: [],
    engineState: "",
    review: null
  };
  function pathOf(node) {
    const path = [];
    for (let n = node; n && n.parent; n = n.parent) path.unshift(n.uci);
    return path;
  }
  function plyOf(node) {
    return pathOf(node).length;
  }
  function layout(main) {
    const nav = (id, label, text) => h("button", { id, title: label, "aria-label": label }, text);
    fill(
      main,
      h(
        "section",
        { id: "analysis" },
        h(
          "div",
          { className: "board-column" },
          h(
            "div",
            { className: "board-with-bar" },
            h(
              "div",
              { id: "eval-bar", role: "img", "aria-label": t("analysis.eval_bar") },
              h("div", { id: "eval-fill" }),
              h("span", { id: "eval-text" })
            ),
            h("div", { id: "board", tabindex: "0", role: "application", "aria-label": t("play.board") })
          ),
          h(
            "div",
            { className: "replay" },
            nav("first-ply", t("play.start"), "⇤"),
            nav("prev-ply", t("play.back"), "◀"),
            h("span", { id: "ply-label" }),
            nav("next-ply", t("play.forward"), "▶"),
            nav("last-ply", t("play.now"), "⇥")
          )
        ),
        h(
          "div",
          { className: "side-column" },
          h("h1", { className: "game-title", id: "analysis-title" }),
          h("p", { id: "analysis-status", role: "status" }),
          h(
            "div",
            { className: "engine-head" },
            h("label", { className: "switch" }, h("input", { type: "checkbox", id: "engine-on" }), " ", t("analysis.engine")),
            h(
              "label",
              {},
              t("analysis.lines"),
              " ",
              h("select", { id: "multipv" }, ...[1, 2, 3, 4, 5].map((n) => h("option", { value: n }, String(n))))
            ),
            h("span", { id: "engine-state", className: "muted" })
          ),
          h("ol", { id: "lines", "aria-live": "off" }),
          h("div", { id: "tree", "aria-label": t("play.moves") }),
          h(
            "div",
            { className: "actions" },
            h("button", { id: "promote" }, t("analysis.promote")),
            h("button", { id: "delete" }, t("analysis.delete")),
            h("button", { id: "flip" }, t("play.flip")),
            h("button", { id: "glyphs" }, t("play.latin")),
            h("a", { id: "edit-link", className: "button" }, t("analysis.edit")),
            h("a", { id: "game-link", className: "button", hidden: true }, t("analysis.to_game"))
          ),
          notationSelect((n) => {
            view.notation = n;
            renderTree();
            renderLines();
          }),
          h(
            "section",
            { id: "review", hidden: true },
            h("h2", {}, t("review.title")),
            h("button", { id: "review-start" }, t("review.request")),
            h("p", { id: "review-progress", role: "status" }),
            h("div", { id: "review-chart" }),
            h("table", { id: "review-players", className: "stats" })
          ),
          h(
            "details",
            {},
            h("summary", {}, t("play.position")),
            h("label", {}, "FEEN ", h("input", { id: "feen", readonly: true })),
            h("label", { id: "fen-row" }, "FEN ", h("input", { id: "fen", readonly: true }))
          ),
          h("p", { className: "error", id: "analysis-error", role: "alert" })
        ),
        h(
          "dialog",
          { id: "promotion" },
          h("p", {}, t("play.promote")),
          h("div", { id: "promotion-choices" }),
          h("button", { id: "promotion-cancel" }, t("play.cancel"))
        )
      )
    );
  }
  async function setupAnalysis(main) {
    layout(main);
    document.title = t("title.analysis");
    const query = new URLSearchParams(location.search);
    view.notation = chosenNotation();
    view.board = new Board($("#board"), {
      move: (moves2) => moves2.length === 1 ? playMove(moves2[0].uci) : choosePromotion(moves2)
    });
    view.root = { uci: "", texts: {}, coords: "", parent: null, children: [], gameMove: false };
    view.node = view.root;
    let moves = [];
    let ply = null;
    let reviewable = false;
    try {
      const id = query.get("g");
      if (id) {
        const game = await api("GET", `/api/games/${encodeURIComponent(id)}`);
        view.gameId = id;
        view.game = game.game;
        view.start = game.start;
        reviewable = !!game.result || game.opponent === "record";
        moves = game.moves.map((m) => m.text.uci);
        view.flipped = game.you === "second";
      } else {
        view.game = query.get("game") || "xiangqi";
        view.start = query.get("position") || "start";
        moves = (query.get("moves") || "").split(/[\s,]+/).filter(Boolean);
      }
      if (query.has("ply")) ply = Number(query.get("ply"));
    } catch (e) {
      showError(errorText(e));
      return;
    }
    let node = view.root;
    const line = [];
    for (const uci of moves) {
      const child = { uci, texts: {}, coords: "", parent: node, children: [], gameMove: !!view.gameId };
      node.children.push(child);
      line.push(child);
      node = child;
    }
    const last = await fetchPosition(node);
    if (!last) return;
    last.moves.forEach((m, i) => {
      line[i].texts = m.text;
      line[i].coords = m.coords;
    });
    $("#analysis-title").textContent = [t("analysis.title"), gameName(view.game)].join(" · ");
    const gameLink = $("#game-link");
    if (view.gameId) {
      gameLink.href = `/g/${view.gameId}`;
      gameLink.hidden = false;
    }
    wireControls();
    connect();
    let at = view.root;
    if (ply === null) at = node;
    else for (let i = 0; i < ply && at.children[0]; i++) at = at.children[0];
    await goTo(at);
    if (reviewable) setupReview();
    $("#board").focus({ preventScroll: true });
  }
  function wireControls() {
    const engineOn = $("#engine-on");
    engineOn.checked = view.engineOn;
    engineOn.addEventListener("change", () => {
      view.engineOn = engineOn.checked;
      localStorage.setItem("chuhe.engine", view.engineOn ? "on" : "off");
      analyse();
    });
    const multipv = $("#multipv");
    multipv.value = String(view.multipv);
    multipv.addEventListener("change", () => {
      view.multipv = Number(multipv.value);
      localStorage.setItem("chuhe.multipv", multipv.value);
      analyse();
    });
    $("#first-ply").addEventListener("click", () => goTo(view.root));
    $("#prev-ply").addEventListener("click", () => view.node.parent && goTo(view.node.parent));
    $("#next-ply").addEventListener("click", () => view.node.children[0] && goTo(view.node.children[0]));
    $("#last-ply").addEventListener("click", () => goTo(lineEnd(view.node)));
    $("#promote").addEventListener("click", promoteVariation);
    $("#delete").addEventListener("click", deleteFromHere);
    $("#flip").addEventListener("click", () => {
      view.flipped = !view.flipped;
      view.positions.clear();
      goTo(view.node);
    });
    $("#glyphs").addEventListener("click", () => {
      view.glyphs = view.glyphs === "chinese" ? "latin" : "chinese";
      localStorage.setItem("chuhe.glyphs", view.glyphs);
      view.positions.clear();
      glyphsLabel();
      goTo(view.node);
    });
    glyphsLabel();
    $("#promotion-cancel").addEventListener("click", () => $("#promotion").close());
    $("#promotion").addEventListener("close", () => {
      if ($("#promotion").returnValue !== "chosen") view.board?.revert();
      $("#promotion").returnValue = "";
    });
    document.addEventListener("keydown", onPageKey);
  }
  function glyphsLabel() {
    $("#glyphs").textContent = view.glyphs === "chinese" ? t("play.latin") : t("play.chinese");
  }
  function lineEnd(node) {
    while (node.children[0]) node = node.children[0];
    return node;
  }
  function onPageKey(event) {
    const target = event.target;
    if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
    if (view.board?.keyboardCursor || event.altKey || event.ctrlKey || event.metaKey) return;
    const node = view.node;
    const siblings = node.parent ? node.parent.children : [node];
    const i = siblings.indexOf(node);
    const step = {
      ArrowLeft: () => node.parent,
      ArrowRight: () => node.children[0] || null,
      ArrowUp: () => siblings[i - 1] || null,
      ArrowDown: () => siblings[i + 1] || null,
      Home: () => view.root,
      End: () => lineEnd(node)
    };
    const go = step[event.key];
    if (!go) return;
    event.preventDefault();
    const next = go();
    if (next) goTo(next);
  }
  async function fetchPosition(node) {
    const moves = pathOf(node);
    const key = moves.join(" ");
    const cached = view.positions.get(key);
    if (cached) return cached;
    try {
      const position = await api("POST", "/api/analysis/position", {
        game: view.game,
        position: view.start,
        moves,
        flip: view.flipped,
        glyphs: view.glyphs
      });
      view.positions.set(key, position);
      return position;
    } catch (e) {
      showError(errorText(e));
      return null;
    }
  }
  async function goTo(node) {
    const request = ++view.request;
    const board = $("#board");
    board.setAttribute("aria-busy", "true");
    const position = await fetchPosition(node);
    if (!position || request !== view.request) return;
    const before = view.node;
    view.node = node;
    view.position = position;
    showError("");
    const last = position.moves[position.moves.length - 1];
    if (node.parent && last && !node.texts.uci) {
      node.texts = last.text;
      node.coords = last.coords;
    }
    view.board.setPicture(position.svg);
    view.board.setMoves(position.result ? [] : position.legal);
    board.dataset.ply = String(position.ply);
    board.setAttribute("aria-busy", "false");
    if (node.parent === before && node !== before) {
      playSound(position.result ? "end" : position.check ? "check" : (node.texts.pmn || "").includes("+") ? "capture" : "move");
    }
    $("#feen").value = position.feen;
    $("#fen-row").hidden = !position.fen;
    $("#fen").value = position.fen || "";
    $("#edit-link").href = `/editor?game=${encodeURIComponent(view.game)}&position=${encodeURIComponent(position.feen)}`;
    $("#ply-label").textContent = String(position.ply);
    $("#analysis-status").textContent = position.result ? resultText(view.game, position.result, position.turn) : [t("play.to_move", { side: sideName(view.game, position.turn) }), position.check ? t("play.check") : null].filter(Boolean).join(" — ");
    document.title = t("title.analysis_turn", { turn: sideName(view.game, position.turn), game: gameName(view.game) });
    renderTree();
    renderReviewMarks();
    analyse();
  }
  function playMove(uci) {
    const node = view.node;
    let child = node.children.find((c) => c.uci === uci);
    if (!child) {
      child = { uci, texts: {}, coords: "", parent: node, children: [], gameMove: false };
      node.children.push(child);
    }
    goTo(child);
  }
  function playLine(line, count) {
    let node = view.node;
    const uci = line.pv.uci || [];
    for (let i = 0; i < count && i < uci.length; i++) {
      let child = node.children.find((c) => c.uci === uci[i]);
      if (!child) {
        const texts = {};
        for (const [notation, moves] of Object.entries(line.pv)) if (moves[i]) texts[notation] = moves[i];
        child = { uci: uci[i], texts, coords: coordinates(texts.pmn || uci[i]), parent: node, children: [], gameMove: false };
        node.children.push(child);
      }
      node = child;
    }
    goTo(node);
  }
  function choosePromotion(moves) {
    const box = $("#promotion-choices");
    box.textContent = "";
    const labels = moves.map((m) => promotionLabel(view.game, m.uci));
    $("#promotion p").textContent = t(labels.some((l) => l) ? "play.promote_to" : "play.promote");
    moves.forEach((m, i) => {
      const button = h("button", {}, labels[i] || m.pmn);
      button.addEventListener("click", () => {
        $("#promotion").close("chosen");
        playMove(m.uci);
      });
      box.append(button);
    });
    $("#promotion").showModal();
  }
  function promoteVariation() {
    for (let n = view.node; n.parent; n = n.parent) {
      const siblings = n.parent.children;
      const i = siblings.indexOf(n);
      if (i > 0) {
        siblings.splice(i, 1);
        siblings.unshift(n);
        break;
      }
    }
    renderTree();
  }
  function deleteFromHere() {
    const node = view.node;
    if (!node.parent || node.gameMove) return;
    node.parent.children = node.parent.children.filter((c) => c !== node);
    goTo(node.parent);
  }
  function moveLabel(node) {
    return moveText(node.texts, node.coords || node.uci, view.notation);
  }
  function renderTree() {
    const box = $("#tree");
    box.textContent = "";
    const current3 = view.position;
    const back = current3 ? current3.ply % 2 : 0;
    const firstTurn = !current3 ? "first" : back === 0 ? current3.turn : other(current3.turn);
    const line = (start, into) => {
      let node = start;
      let first = true;
      while (node.children.length) {
        const [main2, ...others] = node.children;
        into.append(moveButton(main2, firstTurn, first));
        first = false;
        for (const variation of others) {
          const block = h("span", { className: "variation" }, "(");
          block.append(moveButton(variation, firstTurn, true));
          line(variation, block);
          block.append(")");
          into.append(block);
          first = true;
        }
        node = main2;
      }
    };
    const main = h("div", { className: "tree-line" });
    line(view.root, main);
    box.append(main);
    if (!view.root.children.length) box.append(h("p", { className: "muted" }, t("analysis.no_moves")));
    box.querySelector(".current")?.scrollIntoView({ block: "nearest" });
  }
  function moveButton(node, firstTurn, numbered) {
    const ply = plyOf(node);
    const offset = firstTurn === "first" ? 0 : 1;
    const index = ply - 1 + offset;
    const number = Math.floor(index / 2) + 1;
    const firstMove = index % 2 === 0;
    const label = firstMove ? `${number}. ` : numbered ? `${number}… ` : "";
    const mark = reviewMark(node);
    const button = h(
      "button",
      { className: "move" + (node === view.node ? " current" : "") + (mark ? ` ${mark}` : ""), "data-ply": ply, "data-uci": node.uci },
      label,
      moveLabel(node),
      mark ? h("span", { className: "glyph" }, SYMBOL[mark]) : null
    );
    button.addEventListener("click", () => goTo(node));
    return button;
  }
  function connect() {
    const socket = new WebSocket(socketUrl("/api/analysis/ws"));
    view.socket = socket;
    socket.addEventListener("open", () => analyse());
    socket.addEventListener("message", (event) => onEngineMessage(JSON.parse(event.data)));
    socket.addEventListener("close", () => {
      view.socket = null;
      setEngineState("analysis.disconnected");
      setTimeout(connect, 1500);
    });
  }
  function analyse() {
    const position = view.position;
    view.lines = [];
    view.searchId += 1;
    renderLines();
    const socket = view.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN || !position) return;
    if (!view.engineOn || position.result) {
      socket.send(JSON.stringify({ type: "stop" }));
      setEngineState(view.engineOn ? "analysis.over" : "analysis.off");
      renderEval();
      return;
    }
    setEngineState("analysis.starting");
    socket.send(
      JSON.stringify({ type: "analyse", id: view.searchId, game: view.game, position: view.start, moves: pathOf(view.node), multipv: view.multipv })
    );
  }
  function setEngineState(key, params = {}) {
    view.engineState = t(key, params);
    $("#engine-state").textContent = view.engineState;
  }
  function onEngineMessage(message) {
    if (message.id !== void 0 && message.id !== view.searchId) return;
    switch (message.type) {
      case "queued":
        setEngineState("analysis.queued", { ahead: message.ahead });
        break;
      case "line": {
        const line = message;
        view.lines[line.multipv - 1] = line;
        view.lines = view.lines.filter((l) => l && (l.multipv <= line.multipv || l.depth >= line.depth - 1));
        setEngineState("analysis.depth", { depth: line.depth, speed: Math.round(line.nps / 1e3) });
        renderLines();
        break;
      }
      case "paused":
        setEngineState("analysis.paused");
        break;
      case "done":
        setEngineState(message.reason === "over" ? "analysis.over" : "analysis.done", { depth: view.lines[0]?.depth ?? 0 });
        break;
      case "error":
        setEngineState("analysis.error");
        showError(errorText(new ApiFailure(message.error.code, message.error.params || {}, message.error.message, 0)));
        break;
    }
  }
  function scoreText(score2, turn) {
    const sign = turn === "first" ? 1 : -1;
    if ("mate" in score2) {
      const m = score2.mate * sign;
      return m > 0 ? `#${m}` : `#-${-m}`;
    }
    const cp = score2.cp * sign / 100;
    return (cp > 0 ? "+" : "") + cp.toFixed(2);
  }
  function renderLines() {
    const list = $("#lines");
    list.textContent = "";
    const position = view.position;
    if (!position) return;
    const turn = position.turn;
    for (const line of view.lines) {
      if (!line) continue;
      const moves = lineText(line.pv, view.notation);
      const item = h("li", { className: "line", "data-multipv": line.multipv }, h("span", { className: "score" }, scoreText(line.score, turn)), " ");
      moves.slice(0, 12).forEach((text, i) => {
        const button = h("button", { className: "pv-move" }, text);
        button.addEventListener("click", () => playLine(line, i + 1));
        item.append(button, " ");
      });
      item.append(h("span", { className: "muted" }, t("analysis.depth_short", { depth: line.depth })));
      list.append(item);
    }
    renderEval();
    renderArrows();
  }
  function renderEval() {
    const best = view.lines.find(Boolean);
    const position = view.position;
    const fill2 = $("#eval-fill");
    const text = $("#eval-text");
    const bar = $("#eval-bar");
    bar.classList.toggle("flipped", view.flipped);
    if (!best || !position) {
      const over = position?.result;
      const expected2 = over ? over.winner === "first" ? 1e3 : over.winner === "second" ? 0 : 500 : 500;
      fill2.style.height = `${expected2 / 10}%`;
      text.textContent = over ? over.winner === "none" ? "½" : over.winner === "first" ? "1–0" : "0–1" : "";
      bar.dataset.expected = String(expected2);
      return;
    }
    const mover = best.wdl.win + best.wdl.draw / 2;
    const expected = position.turn === "first" ? mover : 1e3 - mover;
    fill2.style.height = `${expected / 10}%`;
    text.textContent = scoreText(best.score, position.turn);
    bar.dataset.expected = String(Math.round(expected));
    bar.setAttribute("aria-label", `${t("analysis.eval_bar")}: ${text.textContent}`);
  }
  function renderArrows() {
    const arrows = [];
    for (const line of view.lines) {
      const uci = line?.pv.uci?.[0];
      if (!uci) continue;
      const squares = uci.match(/[a-z]+\d+/g);
      if (squares && squares.length >= 2) arrows.push({ from: squares[0], to: squares[1], weight: line.multipv });
    }
    view.board?.setArrows(arrows.reverse());
  }
  function setupReview() {
    $("#review").hidden = false;
    $("#review-start").addEventListener("click", requestReview);
    loadReview(false);
  }
  async function requestReview() {
    $("#review-start").disabled = true;
    try {
      const review = await api("POST", `/api/games/${view.gameId}/review`);
      showReview(review);
    } catch (e) {
      $("#review-start").disabled = false;
      showError(errorText(e));
    }
  }
  async function loadReview(quiet) {
    try {
      const review = await api("GET", `/api/games/${view.gameId}/review`);
      if (review.state !== "none") showReview(review);
    } catch (e) {
      if (!(e instanceof ApiFailure && e.code === "no_review") && !quiet) showError(errorText(e));
    }
  }
  function showReview(review) {
    view.review = review;
    const start = $("#review-start");
    start.hidden = true;
    if (review.state !== "done") {
      $("#review-progress").textContent = t("review.progress", { done: review.done, total: review.total });
      setTimeout(() => loadReview(true), 1e3);
      return;
    }
    $("#review-progress").textContent = t("review.budget", { nodes: review.nodes.toLocaleString() });
    renderChart(review);
    renderPlayers(review);
    renderTree();
    renderReviewMarks();
  }
  function reviewMark(node) {
    const review = view.review;
    if (!review || review.state !== "done" || !node.gameMove) return null;
    const m = review.moves[plyOf(node) - 1];
    return m && m.uci === node.uci && SYMBOL[m.class] ? m.class : null;
  }
  function renderReviewMarks() {
    const chart = document.querySelector("#review-chart svg");
    if (!chart) return;
    const ply = plyOf(view.node);
    chart.querySelectorAll(".now").forEach((e) => e.remove());
    if (view.node !== view.root && !view.node.gameMove) return;
    const x = Number(chart.getAttribute("data-step")) * ply;
    const line = document.createElementNS("http://www.w3.org/2000/svg", "line");
    line.setAttribute("class", "now");
    line.setAttribute("x1", String(x));
    line.setAttribute("x2", String(x));
    line.setAttribute("y1", "0");
    line.setAttribute("y2", "100");
    chart.append(line);
  }
  function renderChart(review) {
    const box = $("#review-chart");
    box.textContent = "";
    const n = review.positions.length;
    if (n < 2) return;
    const width = 600;
    const step = width / (n - 1);
    const y = (expected) => 100 - expected / 10;
    const points = review.positions.map((p, i) => `${(i * step).toFixed(1)},${y(p.expected).toFixed(1)}`);
    const NS = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", `0 0 ${width} 100`);
    svg.setAttribute("preserveAspectRatio", "none");
    svg.setAttribute("data-step", String(step));
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", t("review.chart"));
    const area = document.createElementNS(NS, "polygon");
    area.setAttribute("class", "area");
    area.setAttribute("points", [`0,100`, ...points, `${width},100`].join(" "));
    const middle = document.createElementNS(NS, "line");
    middle.setAttribute("class", "middle");
    for (const [k, v] of Object.entries({ x1: 0, x2: width, y1: 50, y2: 50 })) middle.setAttribute(k, String(v));
    const line = document.createElementNS(NS, "polyline");
    line.setAttribute("class", "curve");
    line.setAttribute("points", points.join(" "));
    svg.append(area, middle, line);
    for (const m of review.moves) {
      if (!SYMBOL[m.class]) continue;
      const dot = document.createElementNS(NS, "circle");
      dot.setAttribute("class", `mark ${m.class}`);
      dot.setAttribute("cx", (m.ply * step).toFixed(1));
      dot.setAttribute("cy", y(review.positions[m.ply]?.expected ?? 500).toFixed(1));
      dot.setAttribute("r", "3.5");
      dot.setAttribute("data-ply", String(m.ply));
      svg.append(dot);
    }
    svg.addEventListener("click", (event) => {
      const box2 = svg.getBoundingClientRect();
      const ply = Math.round((event.clientX - box2.left) / box2.width * (n - 1));
      let node = view.root;
      for (let i = 0; i < ply && node.children[0]; i++) node = node.children[0];
      goTo(node);
    });
    box.append(svg);
  }
  function renderPlayers(review) {
    const table = $("#review-players");
    table.textContent = "";
    const head = h("tr", {}, h("th"), h("th", {}, t("review.accuracy")), h("th", {}, t("review.inaccuracies")), h("th", {}, t("review.mistakes")), h("th", {}, t("review.blunders")));
    table.append(head);
    for (const side of ["first", "second"]) {
      const p = review.players[side];
      table.append(
        h(
          "tr",
          { "data-side": side },
          h("th", {}, sideName(view.game, side)),
          h("td", { className: "accuracy" }, `${p.accuracy.toFixed(1)}%`),
          h("td", { className: "inaccuracies" }, p.inaccuracies),
          h("td", { className: "mistakes" }, p.mistakes),
          h("td", { className: "blunders" }, p.blunders)
        )
      );
    }
  }
  function showError(text) {
    $("#analysis-error").textContent = text;
  }

  // src/session.ts
  var me = { user: null, signup: "open" };
  function current2() {
    return me;
  }
  async function refresh() {
    try {
      me = await api("GET", "/api/me");
    } catch {
      me = { user: null, signup: "open" };
    }
    renderHeader();
    return me;
  }
  function profileUrl(name) {
    return `/@/${encodeURIComponent(name)}`;
  }
  function renderHeader() {
    const user = me.user;
    const who = user ? [
      link(profileUrl(user.name), user.guest ? t("nav.guest", { name: user.name }) : user.name),
      user.guest ? link("/signup", t("nav.signup")) : link("/account", t("nav.account")),
      user.guest ? null : h("button", { className: "linkish", id: "logout", onclick: logout }, t("nav.logout"))
    ] : [link("/login", t("nav.login")), me.signup === "open" ? link("/signup", t("nav.signup")) : null];
    const languages = h(
      "select",
      { id: "language", "aria-label": t("nav.language"), title: t("nav.language") },
      ...LANGUAGES.map(([tag2, name]) => h("option", { value: tag2, lang: tag2, selected: tag2 === language() }, name))
    );
    languages.addEventListener("change", () => chooseLanguage(languages.value));
    fill($("#user-menu"), ...who.flat(), languages);
    fill(
      $("#site-nav"),
      link("/", t("nav.play")),
      link("/archive", t("nav.archive")),
      link("/leaderboard", t("nav.leaderboard")),
      link("/analysis", t("nav.analysis"))
    );
  }
  async function logout() {
    await api("POST", "/api/logout").catch(() => void 0);
    location.assign("/");
  }

  // src/archive.ts
  var PAGE = 20;
  var FILTERS = ["player", "vs", "game", "result", "since", "until", "tc", "rated", "opponent"];
  function seat(g, i) {
    const p = g.players[i];
    if (g.engine && g.engine.side === "first" === (i === 0)) return document.createTextNode(t("engine.name", { level: g.engine.level }));
    if (!p.name) return document.createTextNode("?");
    const rating = p.rating !== null ? ` (${p.rating}${p.provisional ? "?" : ""}${p.diff !== null ? `, ${p.diff >= 0 ? "+" : ""}${p.diff}` : ""})` : "";
    const span = h("span", { className: "seat" }, p.guest ? p.name : link(profileUrl(p.name), p.name), rating);
    return span;
  }
  function gameCard(g) {
    const result = g.result ? resultText(g.game, g.result) : t("result.in_play");
    const kind = g.opponent === "record" ? t("archive.record") : t(g.rated ? "mode.rated" : "mode.casual");
    return h(
      "li",
      { className: "game-card", "data-game": g.id },
      h("div", { className: "card-players" }, seat(g, 0), h("span", { className: "score" }, ` ${score(g.result)} `), seat(g, 1)),
      h("div", { className: "card-result" }, result),
      h(
        "div",
        { className: "card-meta" },
        [gameName(g.game), clockText(g.clock), kind, t("archive.moves", { n: g.plies }), day(g.created_ms)].join(" · "),
        " ",
        link(`/g/${g.id}`, t("archive.open"))
      )
    );
  }
  function select(name, options) {
    return h("select", { name }, ...options.map(([v, k]) => h("option", { value: v }, t(k))));
  }
  function setupArchive(main) {
    const query = new URLSearchParams(location.search);
    const form = h(
      "form",
      { id: "archive-filters", className: "filters" },
      h("label", {}, t("archive.player"), h("input", { type: "text", name: "player", autocomplete: "off" })),
      h("label", {}, t("archive.vs"), h("input", { type: "text", name: "vs", autocomplete: "off" })),
      h(
        "label",
        {},
        t("form.game"),
        h("select", { name: "game" }, h("option", { value: "" }, t("archive.any")), ...["xiangqi", "xiongqi", "xiangqi-capture", ...rulesKinds().map((k) => k.name)].map((g) => h("option", { value: g }, gameName(g))))
      ),
      h(
        "label",
        {},
        t("archive.result"),
        select("result", [
          ["", "archive.any"],
          ["finished", "archive.finished"],
          ["ongoing", "archive.ongoing"],
          ["aborted", "archive.aborted"],
          ["draw", "archive.draws"],
          ["win", "archive.wins"],
          ["loss", "archive.losses"]
        ])
      ),
      h("label", {}, t("archive.since"), h("input", { type: "date", name: "since" })),
      h("label", {}, t("archive.until"), h("input", { type: "date", name: "until" })),
      h("label", {}, t("archive.tc"), h("input", { type: "text", name: "tc", placeholder: "180+2", autocomplete: "off" })),
      h("label", {}, t("archive.rated"), select("rated", [["", "archive.any"], ["true", "archive.yes"], ["false", "archive.no"]])),
      h("label", {}, t("archive.opponent"), select("opponent", [["", "archive.any"], ["friend", "archive.friend"], ["engine", "archive.engine"], ["record", "archive.record"]])),
      h("button", { type: "submit" }, t("archive.filter"))
    );
    for (const name of FILTERS) {
      const field = form.elements.namedItem(name);
      if (field && query.get(name)) field.value = query.get(name);
    }
    fill(
      main,
      h(
        "section",
        { id: "archive" },
        h("h1", {}, t("archive.title")),
        form,
        h("p", { id: "archive-count", className: "hint" }),
        h("ul", { id: "games", className: "cards" }),
        h("p", { className: "pager" }, h("button", { id: "prev-games" }, t("archive.prev")), h("button", { id: "next-games" }, t("archive.next"))),
        h("p", { className: "error", id: "archive-error", role: "alert" })
      )
    );
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const next = new URLSearchParams();
      for (const [k, v] of new FormData(form)) if (String(v).trim()) next.set(k, String(v).trim());
      history.pushState(null, "", `/archive${next.toString() ? "?" + next : ""}`);
      load(next, 0);
    });
    const filters = new URLSearchParams();
    for (const name of FILTERS) if (query.get(name)) filters.set(name, query.get(name));
    load(filters, Number(query.get("offset")) || 0);
  }
  async function load(filters, offset) {
    const params = new URLSearchParams(filters);
    params.set("limit", String(PAGE));
    params.set("offset", String(offset));
    $("#archive-error").textContent = "";
    let data;
    try {
      data = await api("GET", `/api/games?${params}`);
    } catch (e) {
      $("#archive-error").textContent = errorText(e);
      return;
    }
    const list = $("#games");
    list.textContent = "";
    for (const g of data.games) list.append(gameCard(g));
    $("#archive-count").textContent = data.total ? t("archive.count", { n: data.total }) : t("archive.none");
    const prev = $("#prev-games");
    const next = $("#next-games");
    prev.hidden = offset === 0;
    next.hidden = offset + data.games.length >= data.total;
    prev.onclick = () => load(filters, Math.max(0, offset - PAGE));
    next.onclick = () => load(filters, offset + PAGE);
  }

  // src/editor.ts
  var SVG2 = "http://www.w3.org/2000/svg";
  var GAMES = ["xiangqi", "xiangqi-capture", "xiongqi"];
  var editor = {
    game: "xiangqi",
    /** The pieces placed: square → PIN token (`R`, `g^`, `+S`). */
    placement: /* @__PURE__ */ new Map(),
    files: 9,
    ranks: 10,
    turn: "first",
    tool: "R",
    // a token, or "" for the eraser
    /** The start position's picture and a piece picture for each token. */
    picture: "",
    templates: /* @__PURE__ */ new Map(),
    check: 0,
    valid: false,
    /** The start position's FEEN. */
    start: ""
  };
  var FILES = "abcdefghijkl";
  function readPlacement(feen2) {
    const ranks = feen2.split(" ")[0].split("/");
    const placement = /* @__PURE__ */ new Map();
    let files = 0;
    ranks.forEach((rank, i) => {
      const number = ranks.length - i;
      let file = 0;
      for (const token of rank.match(/\d+|[+-]?[A-Za-z]\^?'?/g) || []) {
        if (/^\d+$/.test(token)) file += Number(token);
        else placement.set(`${FILES[file++]}${number}`, token);
      }
      files = Math.max(files, file);
    });
    return { placement, files, ranks: ranks.length };
  }
  function feen() {
    const rows = [];
    for (let rank = editor.ranks; rank >= 1; rank--) {
      let row = "";
      let empty = 0;
      for (let file = 0; file < editor.files; file++) {
        const token = editor.placement.get(`${FILES[file]}${rank}`);
        if (!token) {
          empty++;
          continue;
        }
        if (empty) row += String(empty);
        empty = 0;
        row += token;
      }
      if (empty) row += String(empty);
      rows.push(row);
    }
    return `${rows.join("/")} / ${editor.turn === "first" ? "X/x" : "x/X"}`;
  }
  function layout2(main) {
    fill(
      main,
      h(
        "section",
        { id: "editor" },
        h(
          "div",
          { className: "board-column" },
          h("div", { id: "palette-second", className: "palette", role: "toolbar", "aria-label": sideName(editor.game, "second") }),
          h("div", { id: "board", role: "application", "aria-label": t("editor.board") }),
          h("div", { id: "palette-first", className: "palette", role: "toolbar", "aria-label": sideName(editor.game, "first") })
        ),
        h(
          "div",
          { className: "side-column" },
          h("h1", { className: "game-title" }, t("editor.title")),
          h(
            "label",
            {},
            t("editor.game"),
            " ",
            h("select", { id: "editor-game" }, ...GAMES.map((g) => h("option", { value: g }, gameName(g))))
          ),
          h(
            "label",
            {},
            t("editor.turn"),
            " ",
            h("select", { id: "editor-turn" }, h("option", { value: "first" }), h("option", { value: "second" }))
          ),
          h(
            "div",
            { className: "actions" },
            h("button", { id: "editor-eraser", "aria-pressed": "false" }, t("editor.eraser")),
            h("button", { id: "editor-start" }, t("editor.start")),
            h("button", { id: "editor-clear" }, t("editor.clear"))
          ),
          h("label", {}, "FEEN ", h("input", { id: "editor-feen", autocomplete: "off", spellcheck: "false" })),
          h("p", { id: "editor-verdict", role: "status", "aria-live": "polite" }),
          h("div", { className: "actions" }, h("a", { id: "editor-analyse", className: "button" }, t("editor.analyse")))
        )
      )
    );
  }
  async function setupEditor(main) {
    const query = new URLSearchParams(location.search);
    editor.game = GAMES.includes(query.get("game") || "") ? query.get("game") : "xiangqi";
    layout2(main);
    document.title = t("title.editor");
    $("#editor-game").value = editor.game;
    $("#editor-game").addEventListener("change", () => {
      location.assign(`/editor?game=${$("#editor-game").value}`);
    });
    const turn = $("#editor-turn");
    turn.options[0].textContent = t("play.to_move", { side: sideName(editor.game, "first") });
    turn.options[1].textContent = t("play.to_move", { side: sideName(editor.game, "second") });
    turn.addEventListener("change", () => {
      editor.turn = turn.value;
      changed();
    });
    try {
      const start = await api("POST", "/api/analysis/position", { game: editor.game, position: "start", moves: [] });
      learnPieces(start);
    } catch (e) {
      $("#editor-verdict").textContent = errorText(e);
      return;
    }
    load2(query.get("position") || "");
    $("#board").addEventListener("click", (event) => {
      const square = event.target.dataset?.square;
      if (square) place(square);
    });
    $("#editor-eraser").addEventListener("click", () => choose(""));
    $("#editor-start").addEventListener("click", () => load2(""));
    $("#editor-clear").addEventListener("click", () => {
      editor.placement.clear();
      changed();
    });
    $("#editor-feen").addEventListener("change", () => load2($("#editor-feen").value.trim()));
  }
  function learnPieces(start) {
    const box = document.createElement("div");
    box.innerHTML = start.svg;
    const { placement, files, ranks } = readPlacement(start.feen);
    editor.start = start.feen;
    editor.files = files;
    editor.ranks = ranks;
    for (const g of box.querySelectorAll("g.piece")) {
      const token = placement.get(g.dataset.square || "");
      const circle = g.querySelector("circle");
      if (!token || !circle || editor.templates.has(token)) continue;
      editor.templates.set(token, { html: g.outerHTML, x: Number(circle.getAttribute("cx")), y: Number(circle.getAttribute("cy")) });
    }
    box.querySelectorAll("g.piece, .last-move, .check").forEach((e) => e.remove());
    editor.picture = box.innerHTML;
    for (const soldier of ["S", "s"]) {
      const base = editor.templates.get(soldier);
      if (base) editor.templates.set(`+${soldier}`, { ...base, html: base.html.replace("</g>", `<text class="promoted" x="${base.x + 14}" y="${base.y - 12}" font-size="16">+</text></g>`) });
    }
    for (const side of ["first", "second"]) {
      const palette = $(`#palette-${side}`);
      palette.textContent = "";
      for (const [token, picture] of editor.templates) {
        const upper = token.replace(/[^A-Za-z]/g, "") === token.replace(/[^A-Za-z]/g, "").toUpperCase();
        if (upper !== (side === "first")) continue;
        const mini = document.createElementNS(SVG2, "svg");
        mini.setAttribute("viewBox", `${picture.x - 25} ${picture.y - 25} 50 50`);
        mini.innerHTML = picture.html;
        const button = h("button", { className: "piece-tool", "data-token": token, "aria-pressed": "false", title: token, "aria-label": token });
        button.append(mini);
        button.addEventListener("click", () => choose(token));
        palette.append(button);
      }
    }
    choose(editor.tool);
  }
  function choose(tool) {
    editor.tool = tool;
    document.querySelectorAll(".piece-tool").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.token === tool)));
    $("#editor-eraser").setAttribute("aria-pressed", String(tool === ""));
  }
  function load2(text) {
    const source = text || editor.start;
    editor.placement = readPlacement(source).placement;
    editor.turn = source.split(" ")[2]?.startsWith("x") ? "second" : "first";
    $("#editor-turn").value = editor.turn;
    changed();
  }
  function place(square) {
    if (!editor.tool || editor.placement.get(square) === editor.tool) editor.placement.delete(square);
    else editor.placement.set(square, editor.tool);
    changed();
  }
  function changed() {
    draw();
    const text = feen();
    $("#editor-feen").value = text;
    const link2 = $("#editor-analyse");
    link2.href = `/analysis?game=${encodeURIComponent(editor.game)}&position=${encodeURIComponent(text)}`;
    validate(text);
  }
  function draw() {
    const board = $("#board");
    board.innerHTML = editor.picture;
    const svg = board.querySelector("svg");
    if (!svg) return;
    const pieces = document.createElementNS(SVG2, "g");
    pieces.setAttribute("class", "placed");
    pieces.setAttribute("pointer-events", "none");
    for (const [square, token] of editor.placement) {
      const target = board.querySelector(`rect.square[data-square="${square}"]`);
      const picture = editor.templates.get(token);
      if (!target || !picture) continue;
      const x = Number(target.getAttribute("x")) + Number(target.getAttribute("width")) / 2;
      const y = Number(target.getAttribute("y")) + Number(target.getAttribute("height")) / 2;
      const g = document.createElementNS(SVG2, "g");
      g.setAttribute("transform", `translate(${x - picture.x} ${y - picture.y})`);
      g.setAttribute("data-square", square);
      g.setAttribute("data-token", token);
      g.innerHTML = picture.html;
      pieces.append(g);
    }
    svg.insertBefore(pieces, svg.querySelector("rect.square"));
  }
  async function validate(text) {
    const check = ++editor.check;
    const verdict = $("#editor-verdict");
    const link2 = $("#editor-analyse");
    try {
      await api("POST", "/api/analysis/position", { game: editor.game, position: text, moves: [] });
      if (check !== editor.check) return;
      editor.valid = true;
      verdict.textContent = t("editor.valid");
      verdict.className = "ok";
    } catch (e) {
      if (check !== editor.check) return;
      editor.valid = false;
      verdict.textContent = errorText(e);
      verdict.className = "error";
    }
    link2.classList.toggle("disabled", !editor.valid);
    link2.setAttribute("aria-disabled", String(!editor.valid));
    link2.tabIndex = editor.valid ? 0 : -1;
  }

  // src/game.ts
  var play = {
    id: "",
    state: null,
    socket: null,
    viewPly: null,
    // null: the current position; a number: replaying an earlier one
    board: null,
    flipped: null,
    glyphs: localStorage.getItem("chuhe.glyphs") || "chinese",
    clockBase: 0,
    boardRequest: 0,
    seatTaken: false,
    following: false,
    importedAs: null,
    notation: "wxf"
  };
  function layout3(main) {
    const nav = (id, label, text) => h("button", { id, title: label, "aria-label": label }, text);
    fill(
      main,
      h(
        "section",
        { id: "play" },
        h(
          "div",
          { className: "board-column" },
          h("div", { className: "player-bar top", id: "player-top" }),
          h("div", { className: "clock top", id: "clock-top" }),
          h("div", { id: "board", tabindex: "0", role: "application", "aria-label": t("play.board") }),
          h("div", { className: "clock bottom", id: "clock-bottom" }),
          h("div", { className: "player-bar bottom", id: "player-bottom" }),
          h(
            "div",
            { className: "replay", id: "replay" },
            nav("first-ply", t("play.start"), "⇤"),
            nav("prev-ply", t("play.back"), "◀"),
            h("span", { id: "ply-label" }),
            nav("next-ply", t("play.forward"), "▶"),
            nav("last-ply", t("play.now"), "⇥")
          )
        ),
        h(
          "div",
          { className: "side-column" },
          h("p", { id: "game-title", className: "game-title" }),
          h("div", { id: "banner", hidden: true, role: "status" }),
          h("p", { id: "status", role: "status", "aria-live": "polite" }),
          h("p", { id: "notice", role: "status" }),
          h(
            "form",
            { id: "type-move" },
            h("label", { for: "move-input" }, t("play.type_move")),
            h("input", { id: "move-input", autocomplete: "off", spellcheck: "false", placeholder: "h3e3, h3-e3, C2=5" }),
            h("button", { type: "submit" }, t("play.play"))
          ),
          h(
            "div",
            { className: "actions" },
            // Shown by what the first state allows (not before it: no button the game refuses).
            h("button", { id: "resign", hidden: true }, t("play.resign")),
            h("button", { id: "abort", hidden: true }, t("play.abort")),
            h("button", { id: "draw-offer", hidden: true }, t("play.offer_draw")),
            h("button", { id: "draw-accept", hidden: true }, t("play.accept_draw")),
            h("button", { id: "draw-decline", hidden: true }, t("play.decline")),
            h("button", { id: "takeback", hidden: true }, t("play.take_back")),
            h("button", { id: "rematch", hidden: true }, t("play.rematch")),
            h("button", { id: "rematch-accept", hidden: true }, t("play.accept_rematch")),
            h("button", { id: "rematch-decline", hidden: true }, t("play.decline")),
            h("a", { id: "rematch-link", hidden: true, className: "button" }, t("play.to_rematch")),
            h("button", { id: "flip" }, t("play.flip")),
            h("button", { id: "glyphs" }, t("play.latin")),
            h("button", { id: "sound", "aria-pressed": "true" }, t("play.sound_off")),
            h("a", { id: "analyse-link", hidden: true, className: "button" }, t("play.analyse"))
          ),
          h(
            "div",
            { id: "invite", hidden: true },
            h("p", {}, t("play.invite")),
            h("div", { className: "copy-row" }, h("input", { id: "invite-link", readonly: true }), h("button", { id: "copy-invite", type: "button" }, t("play.copy")))
          ),
          h(
            "p",
            { className: "links" },
            t("play.spectators"),
            " ",
            h("a", { id: "watch-link", href: "#" }, t("play.watch_link")),
            " · ",
            h("a", { id: "pcn-link", href: "#" }, t("play.download_pcn")),
            h("span", { id: "pgn-item", hidden: true }, " · ", h("a", { id: "pgn-link", href: "#" }, t("play.download_pgn")))
          ),
          notationSelect((n) => {
            play.notation = n;
            renderMoves();
          }),
          h(
            "table",
            { id: "moves", "aria-label": t("play.moves") },
            h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", { id: "first-head" }), h("th", { id: "second-head" }))),
            h("tbody")
          ),
          h(
            "details",
            {},
            h("summary", {}, t("play.position")),
            h("label", {}, "FEEN ", h("input", { id: "feen", readonly: true })),
            h("label", { id: "fen-row" }, "FEN ", h("input", { id: "fen", readonly: true }))
          ),
          h("p", { className: "error", id: "play-error", role: "alert" })
        ),
        h(
          "dialog",
          { id: "promotion" },
          h("p", {}, t("play.promote")),
          h("div", { id: "promotion-choices" }),
          h("button", { id: "promotion-cancel" }, t("play.cancel"))
        )
      )
    );
  }
  function setupGame(main, id, invite) {
    layout3(main);
    play.id = id;
    const format = new URLSearchParams(location.search).get("format");
    if (format) {
      play.importedAs = format.toUpperCase();
      history.replaceState(null, "", `/g/${id}`);
    }
    play.board = new Board($("#board"), {
      move: (moves) => moves.length === 1 ? sendMove(moves[0].uci) : choosePromotion2(moves)
    });
    document.addEventListener("keydown", onPageKey2);
    $("#resign").addEventListener("click", () => confirm(t("play.resign_confirm")) && send({ type: "resign" }));
    $("#abort").addEventListener("click", () => send({ type: "abort" }));
    $("#draw-offer").addEventListener("click", () => send({ type: "draw", action: "offer" }));
    $("#draw-accept").addEventListener("click", () => send({ type: "draw", action: "accept" }));
    $("#draw-decline").addEventListener("click", () => send({ type: "draw", action: "decline" }));
    $("#takeback").addEventListener("click", () => send({ type: "takeback" }));
    $("#rematch").addEventListener("click", () => send({ type: "rematch", action: "offer" }));
    $("#rematch-accept").addEventListener("click", () => send({ type: "rematch", action: "accept" }));
    $("#rematch-decline").addEventListener("click", () => send({ type: "rematch", action: "decline" }));
    $("#flip").addEventListener("click", () => {
      play.flipped = !play.flipped;
      renderPlayers2();
      drawBoard();
      tickClocks();
    });
    $("#glyphs").addEventListener("click", () => {
      play.glyphs = play.glyphs === "chinese" ? "latin" : "chinese";
      localStorage.setItem("chuhe.glyphs", play.glyphs);
      glyphsLabel2();
      drawBoard();
    });
    $("#sound").addEventListener("click", () => {
      setSoundOn(!soundOn());
      soundLabel();
    });
    soundLabel();
    $("#copy-invite").addEventListener("click", async () => {
      const input = $("#invite-link");
      input.select();
      try {
        await navigator.clipboard.writeText(input.value);
        $("#copy-invite").textContent = t("play.copied");
      } catch {
        document.execCommand?.("copy");
      }
    });
    play.notation = chosenNotation();
    $("#first-ply").addEventListener("click", () => goTo2(0));
    $("#prev-ply").addEventListener("click", () => goTo2(shownPly() - 1));
    $("#next-ply").addEventListener("click", () => goTo2(shownPly() + 1));
    $("#last-ply").addEventListener("click", () => goTo2(null));
    $("#type-move").addEventListener("submit", (event) => {
      event.preventDefault();
      const text = $("#move-input").value.trim();
      if (text) sendMove(text);
    });
    $("#promotion-cancel").addEventListener("click", () => $("#promotion").close());
    $("#promotion").addEventListener("close", () => {
      const dialog = $("#promotion");
      if (dialog.returnValue !== "chosen") {
        play.board?.revert();
        play.board?.select(null);
      }
      dialog.returnValue = "";
    });
    $("#pcn-link").href = `/api/games/${id}/pcn`;
    $("#pgn-link").href = `/api/games/${id}/pgn`;
    $("#analyse-link").href = `/analysis?g=${id}`;
    const open = invite ? join(invite) : Promise.resolve();
    open.finally(() => {
      connect2();
      setInterval(tickClocks, 200);
    });
  }
  async function join(code) {
    history.replaceState(null, "", `/g/${play.id}`);
    try {
      await api("POST", `/api/games/${play.id}/join`, { invite: code });
    } catch (e) {
      if (e instanceof ApiFailure && e.code === "seat_taken") play.seatTaken = true;
      else showError2(errorText(e));
    }
    await refresh();
  }
  function followRematch(id) {
    if (play.following) return;
    play.following = true;
    location.assign(`/g/${id}`);
  }
  function connect2() {
    const socket = new WebSocket(socketUrl(`/api/games/${play.id}/ws`));
    play.socket = socket;
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "state") render(message.state);
      else if (message.type === "error") onRefused(new ApiFailure(message.error.code, message.error.params || {}, message.error.message, 0));
      else if (message.type === "ack" && message.rematch) followRematch(message.rematch);
    });
    socket.addEventListener("close", () => {
      play.socket = null;
      setTimeout(connect2, 1e3);
    });
    socket.addEventListener("error", () => {
      if (!play.state) refresh2();
    });
  }
  async function refresh2() {
    try {
      render(await api("GET", `/api/games/${play.id}`));
    } catch (e) {
      showError2(errorText(e));
    }
  }
  function onRefused(e) {
    showError2(errorText(e));
    play.board?.revert();
    if (e.code === "stale" || e.code === "game_over") refresh2();
  }
  async function send(message) {
    showError2("");
    if (play.socket && play.socket.readyState === WebSocket.OPEN) {
      play.socket.send(JSON.stringify(message));
      return;
    }
    const { type, ...body } = message;
    try {
      const state = await api("POST", `/api/games/${play.id}/${type}`, body);
      if (type === "rematch" && state.rematch.game) return followRematch(state.rematch.game);
      render(state);
    } catch (e) {
      if (e instanceof ApiFailure) onRefused(e);
      else showError2(errorText(e));
    }
  }
  function sendMove(text) {
    $("#move-input").value = "";
    send({ type: "move", move: text, ply: play.state.ply });
  }
  function showError2(text) {
    $("#play-error").textContent = text;
  }
  function shownPly() {
    return play.viewPly === null ? play.state.ply : play.viewPly;
  }
  function goTo2(ply) {
    if (!play.state) return;
    if (ply !== null) ply = Math.max(0, Math.min(ply, play.state.ply));
    play.viewPly = ply === play.state.ply ? null : ply;
    play.board?.select(null);
    boardMoves();
    drawBoard();
    renderMoves();
  }
  function render(state) {
    const first = play.state === null;
    const before = play.state;
    play.state = state;
    if (play.flipped === null) play.flipped = state.you === "second";
    if (play.viewPly !== null && play.viewPly > state.ply) play.viewPly = null;
    play.clockBase = performance.now();
    if (before && before.version !== state.version) sound(before, state);
    const turnName = sideName(state.game, state.turn);
    document.title = state.result ? t("title.game", { game: gameName(state.game) }) : state.you === state.turn ? t("title.your_turn", { game: gameName(state.game) }) : t("title.turn", { turn: t("play.to_move", { side: turnName }), game: gameName(state.game) });
    $("#first-head").textContent = sideName(state.game, "first");
    $("#second-head").textContent = sideName(state.game, "second");
    $("#game-title").textContent = [
      gameName(state.game),
      state.clock ? clockText(state.clock) : null,
      state.opponent === "record" ? null : t(state.rated ? "play.rated" : "play.casual")
    ].filter(Boolean).join(" · ");
    $("#status").textContent = statusLine(state);
    const notice = state.notice ? t("notice.draw_declined", { side: sideName(state.game, state.notice.side) }) : "";
    $("#notice").textContent = play.seatTaken && !state.you ? t("play.seat_taken") : state.opponent === "record" ? [t("play.review"), play.importedAs ? t("lobby.imported_format", { format: play.importedAs }) : null].filter(Boolean).join(" ") : notice;
    const banner = $("#banner");
    banner.hidden = !state.result;
    if (state.result) banner.textContent = t("play.game_over", { text: resultText(state.game, state.result, state.turn) });
    const can = state.can;
    $("#resign").hidden = !can.resign;
    $("#abort").hidden = !can.abort;
    $("#draw-offer").hidden = !(can.offer_draw || state.you && !state.result && state.draw_offer === state.you);
    $("#draw-offer").disabled = !can.offer_draw;
    $("#draw-accept").hidden = !can.answer_draw;
    $("#draw-decline").hidden = !can.answer_draw;
    $("#takeback").hidden = !can.take_back;
    const rematchOffered = state.you !== null && state.rematch.offer === state.you && !state.rematch.game;
    $("#rematch").hidden = !(can.rematch || rematchOffered);
    $("#rematch").disabled = rematchOffered;
    $("#rematch").textContent = rematchOffered ? t("play.rematch_offered") : t("play.rematch");
    $("#rematch-accept").hidden = !can.answer_rematch;
    $("#rematch-decline").hidden = !can.answer_rematch;
    const rematchLink = $("#rematch-link");
    rematchLink.hidden = !state.rematch.game;
    if (state.rematch.game) {
      rematchLink.href = `/g/${state.rematch.game}`;
      if (state.you && before && !before.rematch.game) followRematch(state.rematch.game);
    }
    $("#type-move").hidden = !can.move;
    $("#invite").hidden = !state.invite;
    if (state.invite) $("#invite-link").value = location.origin + state.invite;
    $("#watch-link").href = state.watch;
    $("#pgn-item").hidden = state.game !== "xiangqi";
    $("#analyse-link").hidden = !(state.result || state.opponent === "record");
    $("#feen").value = state.feen;
    $("#fen-row").hidden = !state.fen;
    $("#fen").value = state.fen || "";
    glyphsLabel2();
    $("#glyphs").hidden = !hasGlyphs(state.game);
    $(".notation-choice").hidden = isRules(state.game);
    const moveInput = $("#move-input");
    if (isRules(state.game) && !moveInput.dataset.example && state.legal.length) {
      moveInput.placeholder = `${state.legal[0].uci}, ${state.legal[0].pmn}`;
      moveInput.dataset.example = "yes";
    }
    renderPlayers2();
    renderMoves();
    playPremove();
    boardMoves();
    drawBoard();
    tickClocks();
    if (first) $("#board").focus({ preventScroll: true });
  }
  function glyphsLabel2() {
    $("#glyphs").textContent = play.glyphs === "chinese" ? t("play.latin") : t("play.chinese");
  }
  function soundLabel() {
    const on = soundOn();
    $("#sound").textContent = on ? t("play.sound_off") : t("play.sound_on");
    $("#sound").setAttribute("aria-pressed", String(on));
  }
  function sound(before, state) {
    if (state.result && !before.result) return playSound("end");
    if (state.ply <= before.ply) return;
    if (state.check) return playSound("check");
    const last = state.moves[state.moves.length - 1];
    playSound(last && (last.text.pmn || "").includes("+") ? "capture" : "move");
  }
  function statusLine(state) {
    const rematch = state.rematch.offer && !state.rematch.game ? t("play.rematch_from", { side: sideName(state.game, state.rematch.offer) }) : null;
    if (state.result) return [resultText(state.game, state.result, state.turn), rematch].filter(Boolean).join(" — ");
    const who = sideName(state.game, state.turn);
    const parts = [
      state.you === state.turn ? t("play.your_move", { side: who }) : state.you ? t("play.to_move", { side: who }) : t("play.watching", { side: who })
    ];
    if (state.check) parts.push(t("play.check"));
    if (state.thinking) parts.push(t("play.thinking"));
    if (state.draw_offer) parts.push(t("play.offers_draw", { side: sideName(state.game, state.draw_offer) }));
    return parts.join(" — ");
  }
  function playerLine(state, side) {
    const p = state.players[side === "first" ? 0 : 1];
    const name = p.engine !== null ? h("span", { className: "name" }, t("engine.name", { level: p.engine })) : p.name ? link(profileUrl(p.name), p.name) : h("span", { className: "name muted" }, t("player.open_seat"));
    const rating = p.rating !== null ? h("span", { className: "rating" }, `${p.rating}${p.provisional ? "?" : ""}`) : null;
    const diff = p.diff !== null && p.diff !== void 0 ? h("span", { className: p.diff >= 0 ? "diff up" : "diff down" }, p.diff >= 0 ? `+${p.diff}` : String(p.diff)) : null;
    const held = isRules(state.game) ? handText(state.feen, side) : "";
    const hand = held ? h("span", { className: "hand" }, t("play.in_hand", { pieces: held }), ...dropButtons(state, side)) : null;
    return h("span", { className: `player ${side}` }, h("span", { className: `dot ${side}`, "aria-hidden": "true" }), name, rating, diff, hand);
  }
  function dropButtons(state, side) {
    const drops = canMove() && state.turn === side ? state.legal.filter((m) => m.from === m.to) : [];
    const byPiece = /* @__PURE__ */ new Map();
    for (const m of drops) {
      const piece = m.pmn.split("*")[0].toUpperCase();
      byPiece.set(piece, [...byPiece.get(piece) ?? [], m]);
    }
    return [...byPiece].map(([piece, moves]) => {
      const button = h("button", { className: "drop", title: t("play.drop", { piece }) }, piece);
      button.setAttribute("aria-label", t("play.drop", { piece }));
      button.dataset.piece = piece;
      button.addEventListener("click", () => play.board?.startDrop(moves));
      return button;
    });
  }
  function handText(feen2, side) {
    const hands = (feen2.split(" ")[1] ?? "/").split("/");
    const part = hands[side === "first" ? 0 : 1] ?? "";
    return [...part.matchAll(/(\d*)[-+]?([A-Za-z])['^]?/g)].map((m) => {
      const count = m[1] ? Number(m[1]) : 1;
      return count > 1 ? `${m[2].toUpperCase()}×${count}` : m[2].toUpperCase();
    }).join(" ");
  }
  function renderPlayers2() {
    const state = play.state;
    if (!state) return;
    const [lower, upper] = play.flipped ? ["second", "first"] : ["first", "second"];
    fill($("#player-bottom"), playerLine(state, lower));
    fill($("#player-top"), playerLine(state, upper));
  }
  function moveText2(m) {
    return moveText(m.text, m.coords, play.notation);
  }
  function renderMoves() {
    const state = play.state;
    const body = $("#moves tbody");
    body.textContent = "";
    const firstMover = state.moves.length % 2 === 0 ? state.turn : other(state.turn);
    let row = null;
    state.moves.forEach((m, i) => {
      const side = i % 2 === 0 ? firstMover : other(firstMover);
      if (!row || side === "first") {
        row = body.insertRow();
        row.insertCell().textContent = String(Math.floor(i / 2) + 1);
        row.insertCell();
        row.insertCell();
      }
      const cell = row.cells[side === "first" ? 1 : 2];
      const button = h("button", { className: "move" + (m.ply === shownPly() ? " current" : ""), "data-ply": m.ply }, moveText2(m));
      button.addEventListener("click", () => goTo2(m.ply));
      cell.append(button);
    });
    $("#ply-label").textContent = t("play.ply", { shown: shownPly(), total: state.ply });
  }
  async function drawBoard() {
    const state = play.state;
    if (!state) return;
    const ply = play.viewPly === null ? "" : `&ply=${play.viewPly}`;
    const url = `/api/games/${play.id}/board.svg?targets=true&glyphs=${play.glyphs}&flip=${play.flipped}${ply}&v=${state.version}`;
    const request = ++play.boardRequest;
    const board = $("#board");
    board.setAttribute("aria-busy", "true");
    let text;
    try {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      text = await response.text();
    } catch (e) {
      if (request === play.boardRequest) showError2(t("error.board", { why: e.message }));
      return;
    }
    if (request !== play.boardRequest) return;
    play.board.setPicture(text);
    board.dataset.ply = String(shownPly());
    board.setAttribute("aria-busy", "false");
  }
  function canMove() {
    const s = play.state;
    return !!s && s.can.move && play.viewPly === null;
  }
  function boardMoves() {
    const s = play.state;
    const board = play.board;
    board.setMoves(canMove() ? s.legal : []);
    const waiting = !!s.you && !s.result && s.opponent !== "record" && !s.can.move && play.viewPly === null;
    board.setPremoveSide(waiting ? s.you : null);
  }
  function playPremove() {
    const board = play.board;
    const premove = board.premove;
    if (!premove || !canMove()) return;
    board.setPremove(null);
    const moves = play.state.legal.filter((m) => m.from === premove.from && m.to === premove.to);
    if (moves.length) sendMove(moves[0].uci);
  }
  function choosePromotion2(moves) {
    const box = $("#promotion-choices");
    box.textContent = "";
    const game = play.state.game;
    const rules = isRules(game);
    $("#promotion p").textContent = t(rules ? "play.promote_to" : "play.promote");
    for (const m of moves) {
      const button = h("button", {}, rules && promotionLabel(game, m.uci) || m.pmn);
      button.addEventListener("click", () => {
        $("#promotion").close("chosen");
        sendMove(m.uci);
      });
      box.append(button);
    }
    $("#promotion").showModal();
  }
  function onPageKey2(event) {
    const target = event.target;
    if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
    if (play.board?.keyboardCursor || event.altKey || event.ctrlKey || event.metaKey) return;
    const step = {
      ArrowLeft: () => goTo2(shownPly() - 1),
      ArrowRight: () => goTo2(shownPly() + 1),
      Home: () => goTo2(0),
      End: () => goTo2(null)
    };
    const go = step[event.key];
    if (go && play.state) {
      event.preventDefault();
      go();
    }
  }
  function formatClock(ms) {
    ms = Math.max(0, ms);
    const s = Math.floor(ms / 1e3);
    const tenths = s < 20 ? "." + Math.floor(ms % 1e3 / 100) : "";
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}${tenths}`;
  }
  function tickClocks() {
    const state = play.state;
    const top = $("#clock-top"), bottom = $("#clock-bottom");
    if (!state || !state.clock) {
      top.hidden = bottom.hidden = true;
      return;
    }
    top.hidden = bottom.hidden = false;
    const clock = state.clock;
    const elapsed = performance.now() - play.clockBase;
    const left = clock.remaining_ms.slice();
    if (clock.running) left[clock.running === "first" ? 0 : 1] -= elapsed;
    const [lower, upper] = play.flipped ? [1, 0] : [0, 1];
    const label = (i) => {
      const side = i === 0 ? "first" : "second";
      const text = `${sideName(state.game, side)} ${formatClock(left[i])}`;
      if (clock.first_move_ms === null || clock.first_move_ms === void 0 || state.result || state.turn !== side) return text;
      return `${text} · ${t("play.first_move_within", { time: formatClock(clock.first_move_ms - elapsed) })}`;
    };
    bottom.textContent = label(lower);
    top.textContent = label(upper);
    bottom.classList.toggle("running", clock.running === (lower === 0 ? "first" : "second"));
    top.classList.toggle("running", clock.running === (upper === 0 ? "first" : "second"));
  }

  // src/lobby.ts
  var QUICK = ["1+0", "3+0", "3+2", "5+3", "10+0", "10+5", "15+10", "30+0"];
  var lobby = {
    socket: null,
    socketId: null,
    seeks: [],
    /** The game this page is already going to, once a seek or challenge became one. */
    entering: null
  };
  function enterGame(id) {
    if (lobby.entering === id) return;
    lobby.entering = id;
    location.assign(`/g/${id}`);
  }
  function section(id, title, ...children) {
    return h("section", { id, className: "panel" }, h("h2", {}, title), ...children);
  }
  function radios(name, options, checked) {
    return options.map(
      ([value, label]) => h("label", {}, h("input", { type: "radio", name, value, checked: value === checked }), " ", label)
    );
  }
  var games = () => [
    ["xiangqi", t("game.xiangqi.long")],
    ["xiongqi", t("game.xiongqi.long")],
    ["xiangqi-capture", t("game.xiangqi-capture.long")],
    // The games of the server's rule files, by their manifests' titles.
    ...rulesKinds().map((k) => [k.name, t("game.rules_long", { name: gameName(k.name), files: k.files, ranks: k.ranks })])
  ];
  function casualForRules(form, account) {
    const game = form.querySelector("select[name=game]");
    const rated = form.querySelector("input[name=rated]");
    game.addEventListener("change", () => {
      const allowed = ratedAllowed(game.value);
      rated.disabled = !account || !allowed;
      if (!allowed) rated.checked = false;
    });
  }
  function clockSelect(id) {
    return h(
      "select",
      { id, name: "clock" },
      h("option", { value: "" }, t("clock.none")),
      ...["180+2", "300+3", "600+5", "1800+10"].map((c) => {
        const [base, inc] = c.split("+").map(Number);
        return h("option", { value: c }, `${base / 60} min + ${inc} s`);
      })
    );
  }
  function setupLobby(main) {
    const me2 = current2();
    const account = !!me2.user && !me2.user.guest;
    fill(
      main,
      h(
        "div",
        { className: "lobby-grid" },
        h(
          "div",
          { className: "lobby-main" },
          section(
            "quick",
            t("lobby.quick"),
            h("p", { className: "hint" }, t("lobby.quick_help")),
            h(
              "div",
              { className: "quick-grid" },
              ...QUICK.map((tc) => {
                const [min, inc] = tc.split("+").map(Number);
                const label = `${min}+${inc}`;
                return h("button", { className: "quick", "data-tc": tc, onclick: () => quickSeek(min * 60, inc) }, label);
              })
            ),
            h("p", { className: "error", id: "quick-error", role: "alert" })
          ),
          section(
            "seeks",
            t("lobby.seeks"),
            h(
              "table",
              { id: "seek-table", className: "list" },
              h(
                "thead",
                {},
                h("tr", {}, h("th", {}, t("lobby.player")), h("th", {}, t("lobby.rating")), h("th", {}, t("form.game")), h("th", {}, t("lobby.time")), h("th", {}, t("lobby.mode")), h("th"))
              ),
              h("tbody")
            ),
            h("p", { id: "no-seeks", className: "hint" }, t("lobby.no_seeks"))
          ),
          section("home", t("lobby.engine_or_friend"), newGameForm()),
          section("playing", t("lobby.playing"), h("ul", { id: "playing-list", className: "plain" }), h("p", { id: "no-playing", className: "hint" }, t("lobby.no_playing")))
        ),
        h(
          "div",
          { className: "lobby-side" },
          section(
            "create-seek",
            t("lobby.create"),
            h(
              "form",
              { id: "seek-form" },
              h("label", {}, t("form.game"), " ", h("select", { name: "game" }, ...games().map(([v, l]) => h("option", { value: v }, l)))),
              h("div", { className: "row" }, h("label", {}, t("form.minutes"), " ", h("input", { type: "number", name: "minutes", min: "0", max: "180", step: "any", value: "5" })), h("label", {}, t("form.increment"), " ", h("input", { type: "number", name: "increment", min: "0", max: "180", value: "3" }))),
              h("label", {}, h("input", { type: "checkbox", name: "rated", checked: account, disabled: !account }), " ", t("form.rated")),
              account ? null : h("p", { className: "hint" }, t("lobby.rated_needs_account")),
              h("fieldset", {}, h("legend", {}, t("form.side")), ...radios("color", [["random", t("color.random")], ["first", t("color.first")], ["second", t("color.second")]], "random")),
              h("button", { type: "submit" }, t("lobby.seek")),
              h("p", { className: "error", id: "seek-error", role: "alert" })
            )
          ),
          section("challenges", t("lobby.challenges"), h("ul", { id: "challenge-list", className: "plain" }), h(
            "form",
            { id: "challenge-form" },
            h("label", {}, t("lobby.challenge_name"), " ", h("input", { type: "text", name: "to", autocomplete: "off", required: true })),
            h("label", {}, t("form.game"), " ", h("select", { name: "game" }, ...games().map(([v, l]) => h("option", { value: v }, l)))),
            h("div", { className: "row" }, h("label", {}, t("form.minutes"), " ", h("input", { type: "number", name: "minutes", min: "0", max: "180", step: "any", value: "10" })), h("label", {}, t("form.increment"), " ", h("input", { type: "number", name: "increment", min: "0", max: "180", value: "5" }))),
            h("label", {}, h("input", { type: "checkbox", name: "rated", disabled: !account }), " ", t("form.rated")),
            h("button", { type: "submit" }, t("lobby.send_challenge")),
            h("p", { className: "error", id: "challenge-error", role: "alert" })
          )),
          section(
            "import-section",
            t("lobby.import"),
            h("p", { className: "hint" }, t("lobby.import_help")),
            h(
              "form",
              { id: "import" },
              h("textarea", { id: "import-pcn", rows: "4", spellcheck: "false", placeholder: '[Event "…"] 1. Che3 …  |  {"setup": "…", "moves": […]}  |  FEN' }),
              h("label", {}, t("lobby.import_file"), " ", h("input", { type: "file", id: "import-file", accept: ".xqf,.XQF,.pgn,.pcn,.txt" })),
              h("button", { type: "submit" }, t("form.import")),
              h("p", { className: "error", id: "import-error", role: "alert" })
            )
          )
        )
      )
    );
    wireNewGame();
    casualForRules($("#seek-form"), account);
    casualForRules($("#challenge-form"), account);
    $("#seek-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const form = new FormData(e.target);
      const minutes = Number(form.get("minutes"));
      seek({
        game: form.get("game"),
        clock: minutes > 0 ? { initial_s: minutes * 60, increment_s: Number(form.get("increment")) } : null,
        rated: form.get("rated") === "on",
        color: form.get("color")
      }, "#seek-error");
    });
    $("#challenge-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const form = new FormData(e.target);
      const minutes = Number(form.get("minutes"));
      $("#challenge-error").textContent = "";
      try {
        await api("POST", "/api/challenges", {
          to: String(form.get("to")).trim(),
          game: form.get("game"),
          clock: minutes > 0 ? { initial_s: minutes * 60, increment_s: Number(form.get("increment")) } : null,
          rated: form.get("rated") === "on",
          color: "random"
        });
        e.target.reset();
        await refresh();
        await loadChallenges();
      } catch (err) {
        $("#challenge-error").textContent = errorText(err);
      }
    });
    $("#import").addEventListener("submit", importRecord);
    connectLobby();
    loadPlaying();
    loadChallenges();
    setInterval(loadPlaying, 15e3);
  }
  function newGameForm() {
    return h(
      "form",
      { id: "new-game" },
      h("fieldset", {}, h("legend", {}, t("form.game")), ...radios("game", games(), "xiangqi")),
      h(
        "fieldset",
        {},
        h("legend", {}, t("form.opponent")),
        ...radios("opponent", [["engine", t("lobby.engine")], ["friend", t("lobby.friend")]], "engine"),
        h("label", { className: "engine-only" }, t("form.level"), " ", h("input", { type: "range", id: "level", name: "level", min: "0", max: "20", value: "10" }), " ", h("output", { id: "level-out" }, "10")),
        h("p", { className: "hint friend-only", hidden: true }, t("lobby.friend_help"))
      ),
      h("fieldset", {}, h("legend", {}, t("form.side")), ...radios("side", [["first", t("color.first")], ["second", t("color.second")], ["random", t("color.random")]], "first")),
      h("fieldset", {}, h("legend", {}, t("form.clock")), clockSelect("clock")),
      h("details", {}, h("summary", {}, t("form.position")), h("input", { type: "text", id: "position", name: "position", placeholder: "start", autocomplete: "off", spellcheck: "false" })),
      h("button", { type: "submit", id: "start" }, t("form.start")),
      h("p", { className: "error", id: "new-error", role: "alert" })
    );
  }
  function wireNewGame() {
    const level = $("#level");
    level.addEventListener("input", () => $("#level-out").textContent = level.value);
    const syncOpponent = () => {
      const engine = $("input[name=opponent]:checked").value === "engine";
      document.querySelectorAll(".engine-only").forEach((e) => e.hidden = !engine);
      document.querySelectorAll(".friend-only").forEach((e) => e.hidden = engine);
    };
    document.querySelectorAll("input[name=opponent]").forEach((r) => r.addEventListener("change", syncOpponent));
    syncOpponent();
    $("#new-game").addEventListener("submit", async (event) => {
      event.preventDefault();
      $("#new-error").textContent = "";
      const checked = (name) => $(`input[name=${name}]:checked`).value;
      const body = { game: checked("game"), opponent: checked("opponent"), side: checked("side") };
      if (body.opponent === "engine") body.level = Number(level.value);
      const clock = $("#clock").value;
      if (clock) {
        const [initial, increment] = clock.split("+").map(Number);
        body.clock = { initial_s: initial, increment_s: increment };
      }
      const position = $("#position").value.trim();
      if (position) body.position = position;
      try {
        const created = await api("POST", "/api/games", body, { "Idempotency-Key": idempotencyKey() });
        location.assign("/g/" + created.game.id);
      } catch (e) {
        $("#new-error").textContent = errorText(e);
      }
    });
  }
  async function quickSeek(initial, increment) {
    const me2 = current2();
    await seek({ game: "xiangqi", clock: { initial_s: initial, increment_s: increment }, rated: !!me2.user && !me2.user.guest, color: "random" }, "#quick-error");
  }
  async function seek(body, errorAt) {
    $(errorAt).textContent = "";
    try {
      await api("POST", "/api/seeks", { ...body, socket: lobby.socketId });
      await refresh();
    } catch (e) {
      $(errorAt).textContent = errorText(e);
    }
  }
  function connectLobby() {
    const socket = new WebSocket(socketUrl("/api/lobby/ws"));
    lobby.socket = socket;
    socket.addEventListener("message", (event) => {
      const m = JSON.parse(event.data);
      if (m.type === "hello") lobby.socketId = m.socket;
      else if (m.type === "seeks") renderSeeks(m.seeks);
      else if (m.type === "challenges") renderChallenges(m.challenges);
      else if (m.type === "start") enterGame(m.game);
    });
    socket.addEventListener("close", () => {
      lobby.socket = null;
      lobby.socketId = null;
      setTimeout(connectLobby, 1e3);
    });
  }
  function playerCell(p) {
    return p.guest ? h("span", { className: "name" }, p.name) : link(profileUrl(p.name), p.name);
  }
  function ratingText(p) {
    return p.rating === null ? "" : `${p.rating}${p.provisional ? "?" : ""}`;
  }
  function renderSeeks(seeks) {
    lobby.seeks = seeks;
    const me2 = current2().user;
    const body = $("#seek-table tbody");
    body.textContent = "";
    for (const s of seeks) {
      const mine = me2 !== null && s.player.name === me2.name;
      const action = mine ? h("button", { className: "cancel", onclick: () => cancelSeek(s.id) }, t("lobby.cancel")) : s.served === false ? h("button", { className: "accept", disabled: true, title: t("lobby.not_served") }, t("lobby.accept")) : h("button", { className: "accept", onclick: () => acceptSeek(s.id) }, t("lobby.accept"));
      body.append(
        h(
          "tr",
          { "data-seek": s.id, className: mine ? "mine" : "" },
          h("td", { "data-label": t("lobby.player") }, playerCell(s.player), mine ? h("span", { className: "hint" }, ` (${t("lobby.your_seek")})`) : null),
          h("td", { "data-label": t("lobby.rating") }, ratingText(s.player)),
          h("td", { "data-label": t("form.game") }, gameName(s.game)),
          h("td", { "data-label": t("lobby.time") }, clockText(s.clock)),
          h("td", { "data-label": t("lobby.mode") }, t(s.rated ? "mode.rated" : "mode.casual")),
          h("td", {}, action)
        )
      );
    }
    $("#no-seeks").hidden = seeks.length > 0;
    $("#seek-table").hidden = seeks.length === 0;
  }
  async function acceptSeek(id) {
    $("#quick-error").textContent = "";
    try {
      const created = await api("POST", `/api/seeks/${id}/accept`, void 0, { "Idempotency-Key": idempotencyKey() });
      enterGame(created.game.id);
    } catch (e) {
      $("#quick-error").textContent = errorText(e);
    }
  }
  async function cancelSeek(id) {
    try {
      await api("DELETE", `/api/seeks/${id}`);
    } catch (e) {
      $("#quick-error").textContent = errorText(e);
    }
  }
  async function loadChallenges() {
    try {
      const data = await api("GET", "/api/challenges");
      renderChallenges(data.challenges);
    } catch {
    }
  }
  function terms(c) {
    return [gameName(c.game), clockText(c.clock), t(c.rated ? "mode.rated" : "mode.casual")].join(" · ");
  }
  function renderChallenges(challenges) {
    const list = $("#challenge-list");
    list.textContent = "";
    for (const c of challenges) {
      const verb = async (v) => {
        try {
          const answer = await api("POST", `/api/challenges/${c.id}/${v}`, void 0, v === "accept" ? { "Idempotency-Key": idempotencyKey() } : {});
          if (v === "accept") enterGame(answer.game.id);
          else loadChallenges();
        } catch (e) {
          $("#challenge-error").textContent = errorText(e);
        }
      };
      list.append(
        c.incoming ? h(
          "li",
          { className: "challenge incoming", "data-challenge": c.id },
          t("lobby.challenge_from", { name: c.from.name, terms: terms(c) }),
          " ",
          c.served === false ? h("button", { className: "accept", disabled: true, title: t("lobby.not_served") }, t("lobby.accept")) : h("button", { className: "accept", onclick: () => verb("accept") }, t("lobby.accept")),
          " ",
          h("button", { className: "decline", onclick: () => verb("decline") }, t("lobby.decline"))
        ) : h(
          "li",
          { className: "challenge outgoing", "data-challenge": c.id },
          t("lobby.challenge_to", { name: c.to.name, terms: terms(c) }),
          " ",
          h("button", { className: "cancel", onclick: () => verb("cancel") }, t("lobby.cancel"))
        )
      );
    }
    if (!challenges.length) list.append(h("li", { className: "hint" }, t("lobby.no_challenges")));
  }
  async function loadPlaying() {
    let games2 = [];
    try {
      games2 = (await api("GET", "/api/playing")).games;
    } catch {
      return;
    }
    const list = $("#playing-list");
    list.textContent = "";
    for (const g of games2) {
      const who = (i) => {
        const p = g.players[i];
        return `${p.name ?? "?"}${p.rating !== null ? ` (${ratingText(p)})` : ""}`;
      };
      list.append(
        h(
          "li",
          { "data-game": g.id },
          link(`/g/${g.id}`, `${who(0)} – ${who(1)}`),
          h("span", { className: "hint" }, ` · ${gameName(g.game)} · ${clockText(g.clock)} · ${t("archive.moves", { n: g.plies })}${g.spectators ? ` · ${t("lobby.spectators", { n: g.spectators })}` : ""}`)
        )
      );
    }
    $("#no-playing").hidden = games2.length > 0;
  }
  async function importRecord(event) {
    event.preventDefault();
    $("#import-error").textContent = "";
    const file = $("#import-file").files?.[0];
    try {
      const created = file ? await api("POST", "/api/import", await file.arrayBuffer()) : await api("POST", "/api/import", { record: $("#import-pcn").value });
      location.assign(`/g/${created.game.id}?format=${encodeURIComponent(created.format)}`);
    } catch (e) {
      $("#import-error").textContent = errorText(e);
    }
  }

  // src/people.ts
  function perfName(r) {
    return `${gameName(r.game)} · ${t(`speed.${r.speed}`)}`;
  }
  async function setupProfile(main, name) {
    fill(main, h("section", { id: "profile" }, h("h1", {}, name), h("p", { className: "error", id: "profile-error", role: "alert" })));
    let profile;
    try {
      profile = await api("GET", `/api/users/${encodeURIComponent(name)}`);
    } catch (e) {
      $("#profile-error").textContent = errorText(e);
      return;
    }
    const me2 = current2().user;
    const chart = h("img", { id: "rating-chart", alt: t("profile.chart"), width: "360", height: "140" });
    const perfs = h("select", { id: "chart-perf" }, ...profile.ratings.map((r) => h("option", { value: r.perf }, perfName(r))));
    const showChart = () => {
      chart.setAttribute("src", `/api/users/${encodeURIComponent(profile.user.name)}/rating.svg?perf=${encodeURIComponent(perfs.value)}`);
    };
    perfs.addEventListener("change", showChart);
    const ratings = profile.ratings.length ? h(
      "table",
      { id: "ratings", className: "list" },
      h("tbody", {}, ...profile.ratings.map(
        (r) => h(
          "tr",
          { "data-perf": r.perf },
          h("td", {}, perfName(r)),
          h("td", { className: "rating" }, `${r.rating}${r.provisional ? "?" : ""}`),
          h("td", { className: "hint" }, t("profile.games_count", { n: r.games }))
        )
      ))
    ) : h("p", { className: "hint" }, t("profile.no_ratings"));
    const challenge = me2 && me2.name !== profile.user.name && !profile.user.guest ? h("a", { className: "button", href: `/?challenge=${encodeURIComponent(profile.user.name)}#challenges` }, t("profile.challenge", { name: profile.user.name })) : null;
    fill(
      $("#profile"),
      h("h1", {}, profile.user.name),
      h("p", { className: "hint" }, profile.user.guest ? t("profile.guest") : t("profile.member_since", { date: day(profile.created_ms) })),
      h("p", { id: "record" }, t("profile.record", profile.record)),
      challenge,
      h("h2", {}, t("profile.ratings")),
      ratings,
      profile.ratings.length ? h("div", { className: "chart" }, h("h3", {}, t("profile.chart")), perfs, h("div", {}, chart)) : null,
      h("h2", {}, t("profile.games")),
      h("ul", { id: "profile-games", className: "cards" }),
      link(`/archive?player=${encodeURIComponent(profile.user.name)}`, t("profile.all_games"))
    );
    if (profile.ratings.length) showChart();
    const games2 = await api("GET", `/api/games?player=${encodeURIComponent(profile.user.name)}&limit=10`).catch(() => ({ games: [] }));
    for (const g of games2.games) $("#profile-games").append(gameCard(g));
  }
  async function setupLeaderboard(main) {
    fill(main, h("section", { id: "leaderboard" }, h("h1", {}, t("leaderboard.title"))));
    const data = await api("GET", "/api/leaderboard").catch(() => ({ leaderboard: [] }));
    const section2 = $("#leaderboard");
    if (!data.leaderboard.length) section2.append(h("p", { className: "hint" }, t("leaderboard.empty")));
    for (const board of data.leaderboard) {
      const [game, speed] = board.perf.split(":");
      section2.append(
        h("h2", {}, perfName({ game, speed })),
        h(
          "table",
          { className: "list", "data-perf": board.perf },
          h("thead", {}, h("tr", {}, h("th", {}, t("leaderboard.rank")), h("th", {}, t("leaderboard.player")), h("th", {}, t("leaderboard.rating")), h("th", {}, t("leaderboard.games")))),
          h("tbody", {}, ...board.players.map(
            (p, i) => h("tr", {}, h("td", {}, String(i + 1)), h("td", {}, link(profileUrl(p.name), p.name)), h("td", {}, `${p.rating}${p.provisional ? "?" : ""}`), h("td", {}, String(p.games)))
          ))
        )
      );
    }
  }
  function credentialsForm(id, submit, newPassword) {
    return h(
      "form",
      { id, className: "account-form" },
      h("label", {}, t("form.name"), h("input", { type: "text", name: "name", autocomplete: "username", required: true, maxlength: "64" })),
      h("label", {}, t("form.password"), h("input", { type: "password", name: "password", autocomplete: newPassword ? "new-password" : "current-password", required: true })),
      h("button", { type: "submit" }, submit),
      h("p", { className: "error", role: "alert" })
    );
  }
  function setupCredentials(main, mode) {
    const me2 = current2();
    const closed = mode === "signup" && me2.signup === "closed";
    const form = credentialsForm(mode === "login" ? "login-form" : "signup-form", t(mode === "login" ? "account.login" : "account.signup"), mode === "signup");
    fill(
      main,
      h(
        "section",
        { id: "account", className: "narrow" },
        h("h1", {}, t(mode === "login" ? "account.login" : "account.signup")),
        closed ? h("p", { className: "hint" }, t("account.signup_closed")) : form,
        mode === "signup" && !closed ? h("p", { className: "hint" }, t("account.signup_help")) : null,
        mode === "login" ? me2.signup === "open" ? link("/signup", t("account.need_account")) : null : link("/login", t("account.have_account"))
      )
    );
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const data = new FormData(form);
      const error = form.querySelector(".error");
      error.textContent = "";
      try {
        await api("POST", mode === "login" ? "/api/login" : "/api/signup", { name: data.get("name"), password: data.get("password") });
        await refresh();
        const back = new URLSearchParams(location.search).get("back");
        location.assign(back && back.startsWith("/") && !back.startsWith("//") ? back : "/");
      } catch (err) {
        error.textContent = errorText(err);
      }
    });
  }
  function setupAccount(main) {
    const me2 = current2().user;
    if (!me2 || me2.guest) return setupCredentials(main, "login");
    const form = h(
      "form",
      { id: "password-form", className: "account-form" },
      h("label", {}, t("form.old_password"), h("input", { type: "password", name: "old", autocomplete: "current-password", required: true })),
      h("label", {}, t("form.new_password"), h("input", { type: "password", name: "new", autocomplete: "new-password", required: true })),
      h("button", { type: "submit" }, t("account.change_password")),
      h("p", { className: "error", role: "alert" }),
      h("p", { className: "done", role: "status" })
    );
    fill(main, h("section", { id: "account", className: "narrow" }, h("h1", {}, t("account.title")), link(profileUrl(me2.name), t("account.profile")), h("h2", {}, t("account.change_password")), form));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const data = new FormData(form);
      form.querySelector(".error").textContent = "";
      form.querySelector(".done").textContent = "";
      try {
        await api("POST", "/api/password", { old: data.get("old"), new: data.get("new") });
        form.reset();
        form.querySelector(".done").textContent = t("account.password_changed");
      } catch (err) {
        form.querySelector(".error").textContent = errorText(err);
      }
    });
  }

  // src/main.ts
  async function route() {
    setLanguage(document.documentElement.lang || "en");
    document.title = t("title.site");
    await Promise.all([refresh(), loadKinds()]);
    const main = $("main");
    const path = location.pathname;
    const game = path.match(/^\/g\/([A-Za-z0-9]+)$/);
    const profile = path.match(/^\/@\/(.+)$/);
    if (game) setupGame(main, game[1], new URLSearchParams(location.search).get("invite"));
    else if (profile) setupProfile(main, decodeURIComponent(profile[1]));
    else if (path === "/archive") setupArchive(main);
    else if (path === "/analysis") setupAnalysis(main);
    else if (path === "/editor") setupEditor(main);
    else if (path === "/leaderboard") setupLeaderboard(main);
    else if (path === "/login") setupCredentials(main, "login");
    else if (path === "/signup") setupCredentials(main, "signup");
    else if (path === "/account") setupAccount(main);
    else setupLobby(main);
    prefillChallenge();
  }
  function prefillChallenge() {
    const name = new URLSearchParams(location.search).get("challenge");
    const field = document.querySelector("#challenge-form input[name=to]");
    if (name && field) {
      field.value = name;
      field.focus();
    }
  }
  window.chuheCatalogues = catalogues;
  route();
})();
