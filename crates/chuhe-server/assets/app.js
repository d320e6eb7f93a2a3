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
    "game.xiangqi": "象棋",
    "game.xiongqi": "熊棋",
    "game.xiangqi-capture": "象棋（吃将规则）",
    "game.xiangqi.long": "象棋 Xiangqi",
    "game.xiongqi.long": "熊棋 Xiongqi",
    "game.xiangqi-capture.long": "象棋，吃将规则",
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
    "play.rated": "计分",
    "result.checkmate": "{winner}胜：将死",
    "result.stalemate": "{winner}胜：{loser}困毙",
    "result.nomove": "{winner}胜：{loser}无棋可走",
    "result.bareking": "{winner}胜：光杆老将",
    "result.mareking": "{winner}胜：{loser}的将被吃",
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
    "error.board": "棋盘无法绘制（{why}）。"
  };

  // src/lang/zh-Hant.ts
  var zhHant = {
    "nav.play": "對弈",
    "nav.archive": "棋局庫",
    "nav.leaderboard": "排行榜",
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
    "game.xiangqi": "象棋",
    "game.xiongqi": "熊棋",
    "game.xiangqi-capture": "象棋（吃將規則）",
    "game.xiangqi.long": "象棋 Xiangqi",
    "game.xiongqi.long": "熊棋 Xiongqi",
    "game.xiangqi-capture.long": "象棋，吃將規則",
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
    "play.rated": "計分",
    "result.checkmate": "{winner}勝：將死",
    "result.stalemate": "{winner}勝：{loser}困斃",
    "result.nomove": "{winner}勝：{loser}無棋可走",
    "result.bareking": "{winner}勝：光桿老將",
    "result.mareking": "{winner}勝：{loser}的將被吃",
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
    "error.board": "棋盤無法繪製（{why}）。"
  };

  // src/lang/vi.ts
  var vi = {
    "nav.play": "Chơi",
    "nav.archive": "Kho ván cờ",
    "nav.leaderboard": "Bảng xếp hạng",
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
    "game.xiangqi": "Cờ tướng",
    "game.xiongqi": "Xiongqi",
    "game.xiangqi-capture": "Cờ tướng (luật ăn tướng)",
    "game.xiangqi.long": "Cờ tướng 象棋",
    "game.xiongqi.long": "Xiongqi 熊棋 (cờ gấu trúc)",
    "game.xiangqi-capture.long": "Cờ tướng, luật ăn tướng",
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
    "play.rated": "Tính điểm",
    "result.checkmate": "{winner} thắng: chiếu hết",
    "result.stalemate": "{winner} thắng: {loser} hết nước đi",
    "result.nomove": "{winner} thắng: {loser} không còn nước đi",
    "result.bareking": "{winner} thắng: tướng trơ trọi",
    "result.mareking": "{winner} thắng: tướng của {loser} bị ăn",
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
    "error.board": "Không vẽ được bàn cờ ({why})."
  };

  // src/i18n.ts
  var en = {
    // header and navigation
    "nav.play": "Play",
    "nav.archive": "Archive",
    "nav.leaderboard": "Leaderboard",
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
    // games and sides
    "game.xiangqi": "Xiangqi",
    "game.xiongqi": "Xiongqi",
    "game.xiangqi-capture": "Xiangqi (capture rules)",
    "game.xiangqi.long": "Xiangqi 象棋",
    "game.xiongqi.long": "Xiongqi 熊棋",
    "game.xiangqi-capture.long": "Xiangqi, capture-the-king rules",
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
    "play.rated": "Rated",
    // results
    "result.checkmate": "{winner} wins by checkmate",
    "result.stalemate": "{winner} wins: {loser} has no legal move (stalemate)",
    "result.nomove": "{winner} wins: {loser} has no legal move",
    "result.bareking": "{winner} wins by bare king",
    "result.mareking": "{winner} wins: {loser}'s general was captured",
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
    "error.board": "The board could not be drawn ({why})."
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
      link("/leaderboard", t("nav.leaderboard"))
    );
  }
  async function logout() {
    await api("POST", "/api/logout").catch(() => void 0);
    location.assign("/");
  }

  // src/words.ts
  var other = (side) => side === "first" ? "second" : "first";
  function sideName(game, side) {
    if (game === "xiongqi") return t(side === "first" ? "side.south" : "side.north");
    return t(side === "first" ? "side.red" : "side.black");
  }
  function gameName(game) {
    const key = `game.${game}`;
    return has(key) ? t(key) : game;
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
  function errorText(e) {
    if (!(e instanceof ApiFailure)) return String(e?.message ?? e);
    const params = e.params;
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
        h("select", { name: "game" }, h("option", { value: "" }, t("archive.any")), ...["xiangqi", "xiongqi", "xiangqi-capture"].map((g) => h("option", { value: g }, gameName(g))))
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

  // src/board.ts
  var SVG = "http://www.w3.org/2000/svg";
  var Board = class {
    constructor(element, handlers) {
      this.legal = [];
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
    /** Shows a new picture (the server's SVG text) and draws the marks again over it. */
    setPicture(svg) {
      this.press = null;
      this.pending = false;
      this.element.innerHTML = svg;
      this.redraw();
    }
    /** The moves the player may make now (none: the board only shows). */
    setMoves(legal) {
      this.legal = legal;
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

  // src/notation.ts
  var NOTATIONS = ["wxf", "coords", "chinese"];
  var TRADITIONAL = { 车: "車", 马: "馬", 帅: "帥", 将: "將", 进: "進", 后: "後" };
  function chosenNotation() {
    const kept = localStorage.getItem("chuhe.notation");
    if (kept && NOTATIONS.includes(kept)) return kept;
    return language().startsWith("zh") ? "chinese" : "wxf";
  }
  function notationSelect(changed) {
    const select2 = h("select", { id: "notation" }, ...NOTATIONS.map((n) => h("option", { value: n }, t(`notation.${n}`))));
    select2.value = chosenNotation();
    select2.addEventListener("change", () => {
      localStorage.setItem("chuhe.notation", select2.value);
      changed(select2.value);
    });
    return h("label", { className: "notation-choice" }, t("play.notation"), " ", select2);
  }
  function moveText(texts, coords, notation) {
    if (notation === "chinese" && texts.chinese) {
      const text = texts.chinese;
      return language() === "zh-Hant" ? [...text].map((c) => TRADITIONAL[c] ?? c).join("") : text;
    }
    if (notation === "coords") return coords;
    return coords + (texts.wxf ? ` (${texts.wxf})` : "");
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
  function layout(main) {
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
            h("button", { id: "resign" }, t("play.resign")),
            h("button", { id: "abort" }, t("play.abort")),
            h("button", { id: "draw-offer" }, t("play.offer_draw")),
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
    layout(main);
    play.id = id;
    const format = new URLSearchParams(location.search).get("format");
    if (format) {
      play.importedAs = format.toUpperCase();
      history.replaceState(null, "", `/g/${id}`);
    }
    play.board = new Board($("#board"), {
      move: (moves) => moves.length === 1 ? sendMove(moves[0].uci) : choosePromotion(moves)
    });
    document.addEventListener("keydown", onPageKey);
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
      renderPlayers();
      drawBoard();
      tickClocks();
    });
    $("#glyphs").addEventListener("click", () => {
      play.glyphs = play.glyphs === "chinese" ? "latin" : "chinese";
      localStorage.setItem("chuhe.glyphs", play.glyphs);
      glyphsLabel();
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
    $("#first-ply").addEventListener("click", () => goTo(0));
    $("#prev-ply").addEventListener("click", () => goTo(shownPly() - 1));
    $("#next-ply").addEventListener("click", () => goTo(shownPly() + 1));
    $("#last-ply").addEventListener("click", () => goTo(null));
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
      connect();
      setInterval(tickClocks, 200);
    });
  }
  async function join(code) {
    history.replaceState(null, "", `/g/${play.id}`);
    try {
      await api("POST", `/api/games/${play.id}/join`, { invite: code });
    } catch (e) {
      if (e instanceof ApiFailure && e.code === "seat_taken") play.seatTaken = true;
      else showError(errorText(e));
    }
    await refresh();
  }
  function connect() {
    const socket = new WebSocket(socketUrl(`/api/games/${play.id}/ws`));
    play.socket = socket;
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "state") render(message.state);
      else if (message.type === "error") onRefused(new ApiFailure(message.error.code, message.error.params || {}, message.error.message, 0));
      else if (message.type === "ack" && message.rematch) location.assign(`/g/${message.rematch}`);
    });
    socket.addEventListener("close", () => {
      play.socket = null;
      setTimeout(connect, 1e3);
    });
    socket.addEventListener("error", () => {
      if (!play.state) refresh2();
    });
  }
  async function refresh2() {
    try {
      render(await api("GET", `/api/games/${play.id}`));
    } catch (e) {
      showError(errorText(e));
    }
  }
  function onRefused(e) {
    showError(errorText(e));
    play.board?.revert();
    if (e.code === "stale" || e.code === "game_over") refresh2();
  }
  async function send(message) {
    showError("");
    if (play.socket && play.socket.readyState === WebSocket.OPEN) {
      play.socket.send(JSON.stringify(message));
      return;
    }
    const { type, ...body } = message;
    try {
      const state = await api("POST", `/api/games/${play.id}/${type}`, body);
      if (type === "rematch" && state.rematch.game) return location.assign(`/g/${state.rematch.game}`);
      render(state);
    } catch (e) {
      if (e instanceof ApiFailure) onRefused(e);
      else showError(errorText(e));
    }
  }
  function sendMove(text) {
    $("#move-input").value = "";
    send({ type: "move", move: text, ply: play.state.ply });
  }
  function showError(text) {
    $("#play-error").textContent = text;
  }
  function shownPly() {
    return play.viewPly === null ? play.state.ply : play.viewPly;
  }
  function goTo(ply) {
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
      if (state.you && before && !before.rematch.game && !play.following) {
        play.following = true;
        location.assign(rematchLink.href);
      }
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
    glyphsLabel();
    renderPlayers();
    renderMoves();
    playPremove();
    boardMoves();
    drawBoard();
    tickClocks();
    if (first) $("#board").focus({ preventScroll: true });
  }
  function glyphsLabel() {
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
    return h("span", { className: `player ${side}` }, h("span", { className: `dot ${side}`, "aria-hidden": "true" }), name, rating, diff);
  }
  function renderPlayers() {
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
      button.addEventListener("click", () => goTo(m.ply));
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
      if (request === play.boardRequest) showError(t("error.board", { why: e.message }));
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
  function choosePromotion(moves) {
    const box = $("#promotion-choices");
    box.textContent = "";
    for (const m of moves) {
      const button = h("button", {}, m.pmn);
      button.addEventListener("click", () => {
        $("#promotion").close("chosen");
        sendMove(m.uci);
      });
      box.append(button);
    }
    $("#promotion").showModal();
  }
  function onPageKey(event) {
    const target = event.target;
    if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
    if (play.board?.keyboardCursor || event.altKey || event.ctrlKey || event.metaKey) return;
    const step = {
      ArrowLeft: () => goTo(shownPly() - 1),
      ArrowRight: () => goTo(shownPly() + 1),
      Home: () => goTo(0),
      End: () => goTo(null)
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
    seeks: []
  };
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
    ["xiangqi-capture", t("game.xiangqi-capture.long")]
  ];
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
      else if (m.type === "start") location.assign(`/g/${m.game}`);
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
      const action = mine ? h("button", { className: "cancel", onclick: () => cancelSeek(s.id) }, t("lobby.cancel")) : h("button", { className: "accept", onclick: () => acceptSeek(s.id) }, t("lobby.accept"));
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
      location.assign(`/g/${created.game.id}`);
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
          if (v === "accept") location.assign(`/g/${answer.game.id}`);
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
          h("button", { className: "accept", onclick: () => verb("accept") }, t("lobby.accept")),
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
    await refresh();
    const main = $("main");
    const path = location.pathname;
    const game = path.match(/^\/g\/([A-Za-z0-9]+)$/);
    const profile = path.match(/^\/@\/(.+)$/);
    if (game) setupGame(main, game[1], new URLSearchParams(location.search).get("invite"));
    else if (profile) setupProfile(main, decodeURIComponent(profile[1]));
    else if (path === "/archive") setupArchive(main);
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
