// The issues overview in Simplified Chinese (keys: en/overview.ts).
import type { Messages } from '../en/index.ts';

export const overview: Messages['overview'] = {
  label: '问题概览',
  title: '问题',
  summary_one: '发现 {{n}} 个问题',
  summary_other: '发现 {{n}} 个问题',
  live: '抓取进行中，实时更新',
  export: '导出 CSV',
  exportXlsx: '导出 XLSX',
  exporting: '正在导出…',
  noCrawl: '开始一次抓取或打开以前的抓取，即可查看其问题。',
  none: '未发现问题。',
  tableLabel: '发现的问题',
  columns: { issue: '问题', type: '类型', priority: '优先级', urls: 'URL 数', why: '为何重要', fix: '如何修复' },
  priority: { high: '高', medium: '中', low: '低' },
  type: { issue: '问题', warning: '警告', opportunity: '优化机会' },
  open: '在结果浏览中打开：{{filter}}',
  issues: {
    'broken-internal': {
      label: '失效的内部链接',
      why: '指向返回错误或无响应页面的链接会把访客和爬虫引向死路，并浪费抓取预算。',
      fix: '更新或删除指向这些 URL 的链接（入链见详情面板），或恢复这些页面、将其重定向。',
    },
    'redirect-loop': {
      label: '重定向循环',
      why: '回到自身链中的重定向永远到达不了页面：浏览器和搜索引擎都会放弃。',
      fix: '让循环中的每个重定向直接指向应当响应的最终页面。',
    },
    'mixed-content': {
      label: '混合内容',
      why: '浏览器会阻止或标记 HTTPS 页面上通过明文 HTTP 加载的图片、脚本和样式表，导致页面出错或被标为不安全。',
      fix: '通过 HTTPS 加载这些页面的所有资源（或使用经 HTTPS 提供的相对地址）。',
    },
    'title-missing': {
      label: '缺失标题',
      why: '标题是搜索结果的标题行；没有标题时，搜索引擎会自行拼凑一个，效果往往不佳。',
      fix: '在每个页面的 <head> 中写一个独特、有描述性的 <title>。',
    },
    'canonical-non-indexable': {
      label: '规范链接指向不可索引的 URL',
      why: '指向无法索引的页面（错误、重定向、noindex）的规范链接很可能被忽略，或使该页面从索引中消失。',
      fix: '让规范链接指向应当参与排名的可索引 200 页面，或指向页面本身。',
    },
    'sitemap-non-indexable': {
      label: '站点地图中的不可索引 URL',
      why: '站点地图应只列出要索引的页面；其中的错误、重定向和 noindex 页面会浪费抓取并混淆信号。',
      fix: '从站点地图中删除这些 URL，或改为列出它们可索引的最终 URL。',
    },
    'directive-noindex': {
      label: 'Noindex 页面',
      why: '这些页面要求不被索引：对某些页面是对的，误设时则是灾难。',
      fix: '确认每个页面确实应当不出现在搜索结果中；否则删除 noindex（meta robots 或 X-Robots-Tag）。',
    },
    'canonical-elsewhere': {
      label: '已规范化的页面',
      why: '规范链接指向另一个 URL 的页面自身不会被索引；若非有意，它会从搜索结果中消失。',
      fix: '检查每个页面的规范链接：除非它确实是所指 URL 的副本，否则应指向页面本身。',
    },
    'js-blocked': {
      label: '被阻止的资源',
      why: '页面所需但爬虫无法获取的资源，可能使搜索引擎看到的渲染内容不完整。',
      fix: '在 robots.txt 中允许渲染页面所需的资源，或不再加载它们。',
    },
    'h1-missing': {
      label: '缺失 H1',
      why: 'h1 告诉读者和搜索引擎页面的主题。',
      fix: '为每个页面写一个说明其主题的 h1。',
    },
    'js-errors': {
      label: 'JavaScript 错误',
      why: '脚本错误可能使搜索引擎渲染出的页面缺少内容、链接或元数据。',
      fix: '修复每个页面渲染详情中列出的错误（控制台错误和未捕获的异常）。',
    },
    'redirect-chain': {
      label: '重定向链',
      why: '每多一跳都会拖慢访客，爬虫也可能不再跟随过长的链。',
      fix: '让链中的每个 URL 直接重定向到最终目标，并更新链接指向它。',
    },
    'canonical-missing': {
      label: '缺失规范链接',
      why: '没有规范链接时，搜索引擎会自行在重复 URL（参数、大小写、斜杠）中挑选一个。',
      fix: '为每个可索引页面添加指向自身的规范链接。',
    },
    'sitemap-orphans': {
      label: '站点地图中的孤立 URL',
      why: '列在站点地图中、却没有任何已抓取页面链接的页面难以被发现，权重也低。',
      fix: '从站内相关页面链接到这些页面；若已过时，则从站点地图中删除。',
    },
    'title-duplicate': {
      label: '重复标题',
      why: '标题相同的页面会相互竞争，在搜索结果中也难以区分。',
      fix: '为每个页面写出能说明其独特之处的标题。',
    },
    'title-over-60': {
      label: '标题超过 60 个字符',
      why: '过长的标题会在搜索结果中被截断，丢失结尾。',
      fix: '缩短标题，把重要的词放在前面。',
    },
    'title-over-561px': {
      label: '标题超过 561 像素',
      why: 'Google 按宽度截断标题：宽于 561 像素的标题结尾会被省略号替代。',
      fix: '缩短标题（W、M 等宽字母占用最多），把重要的词放在前面。',
    },
    'title-under-30': {
      label: '标题少于 30 个字符',
      why: '过短的标题浪费了搜索结果中介绍页面的空间。',
      fix: '写出更完整、能描述页面及其主题的标题。',
    },
    'title-under-200px': {
      label: '标题少于 200 像素',
      why: '过窄的标题只用了搜索结果所给空间的一小部分。',
      fix: '写出更完整、能描述页面及其主题的标题。',
    },
    'description-missing': {
      label: '缺失 meta 描述',
      why: '没有描述时，搜索引擎会从页面中挑选摘要，未必能吸引点击。',
      fix: '为每个重要页面写一段 meta 描述，用一两句话概括它。',
    },
    'description-duplicate': {
      label: '重复的 meta 描述',
      why: '多个页面使用相同描述，会使它们的搜索结果看起来一样。',
      fix: '为每个页面写出能说明其独特之处的描述。',
    },
    'description-over-155': {
      label: 'meta 描述超过 155 个字符',
      why: '过长的描述会在搜索结果中被截断。',
      fix: '缩短描述，把关键信息放在前面。',
    },
    'description-over-985px': {
      label: 'meta 描述超过 985 像素',
      why: 'Google 按宽度截断摘要：宽于 985 像素的描述会丢失结尾。',
      fix: '缩短描述，把关键信息放在前面。',
    },
    'description-under-70': {
      label: 'meta 描述少于 70 个字符',
      why: '过短的描述信息太少，搜索引擎可能用页面文字替代它。',
      fix: '写出更完整、能概括页面的描述。',
    },
    'description-under-400px': {
      label: 'meta 描述少于 400 像素',
      why: '过窄的描述只用了摘要空间的一小部分。',
      fix: '写出更完整、能概括页面的描述。',
    },
    'h1-multiple': {
      label: '多个 H1',
      why: '多个 h1 会模糊页面的主要内容。',
      fix: '每个页面只保留一个 h1，其余标题改为 h2 或更低级别。',
    },
    // Issue 18.3.
    'images-broken': {
      label: '损坏的图片',
      why: '返回错误或没有响应的图片会显示为破损图标或空白，搜索引擎也无法索引它。',
      fix: '恢复这些图片，或让页面改用可用的图片（每一行都给出使用该图片的页面）。',
    },
    'images-alt-missing': {
      label: '缺少替代文本的图片',
      why: '没有 alt 文本，屏幕阅读器无法说明图片内容，搜索引擎也更难理解它。',
      fix: '为每张图片添加描述它的 alt 属性；纯装饰的图片用 alt=""。',
    },
    'images-over-100kb': {
      label: '超过 100 KB 的图片',
      why: '大图片会拖慢页面，在移动网络上尤其明显。',
      fix: '压缩图片，使用现代格式（WebP、AVIF），并按显示尺寸提供。',
    },
    'images-alt-over-100': {
      label: '替代文本超过 100 个字符',
      why: '过长的 alt 文本用屏幕阅读器听起来很累，也像堆砌关键词。',
      fix: '让 alt 文本简短切题；较长的说明放在页面正文中。',
    },
    'images-no-dimensions': {
      label: '缺少宽度和高度的图片',
      why: '没有 width 和 height，浏览器无法预留图片的位置，图片加载时页面会跳动（布局偏移）。',
      fix: '为每个 img 设置 width 和 height 属性（或 CSS 宽高比）。',
    },
    // Issue 18.4.
    'structured-jsonld-errors': {
      label: 'JSON-LD 解析错误',
      why: '搜索引擎会忽略不是有效 JSON 的 JSON-LD 块，其富媒体搜索结果随之丢失。',
      fix: '在解析器指出的位置修正 JSON（详情面板中可见），例如多余的逗号或未转义的引号。',
    },
    // 安全与 hreflang（issue 18.5）。
    'security-http': {
      label: 'HTTP 页面',
      why: '通过明文 HTTP 提供的页面在传输中可被读取和篡改；浏览器会标为“不安全”，搜索引擎也更青睐 HTTPS。',
      fix: '通过 HTTPS 提供网站，把每个 HTTP 地址 301 重定向到对应的 HTTPS 地址，并链接到 HTTPS 地址。',
    },
    'hreflang-missing-return': {
      label: '缺少返回链接的 hreflang',
      why: '只有被指向的页面反向链接回来，搜索引擎才会采用该 hreflang 备用版本：各语言版本没有配成对。',
      fix: '让 hreflang 组中的每个页面都指向组内所有其他页面（包括自身）；详情面板列出了备用版本。',
    },
    'hreflang-non-200': {
      label: '指向非 200 地址的 hreflang',
      why: '重定向、失败或返回错误的备用地址会被忽略，它所代表的语言版本就丢失了。',
      fix: '让每个 hreflang 链接指向该语言版本最终返回 200 的地址。',
    },
    'hreflang-invalid': {
      label: '无效的 hreflang 代码',
      why: '不是有效语言代码（ISO 639-1，可带 ISO 3166-1 二字母地区代码）的 hreflang 值会被忽略：“en-UK”和“en_US”是常见错误。',
      fix: '使用“en”、“en-GB”、“zh-Hant-TW”或“x-default”这样的代码。',
    },
    'hreflang-non-indexable': {
      label: '指向不可索引地址的 hreflang',
      why: '备用页面设置了 noindex 或规范链接指向别处，信号自相矛盾，搜索引擎可能放弃这组配对。',
      fix: '只把可索引且规范链接指向自身的地址作为备用版本。',
    },
    'hreflang-no-self': {
      label: '没有自引用的 hreflang',
      why: 'Google 要求 hreflang 组中的每个页面也指向自身；缺少时该组可能被视为不完整。',
      fix: '为页面自身的语言添加一个指向页面本身的 hreflang 链接。',
    },
    'security-unsafe-links': {
      label: '不安全的跨源链接',
      why: '没有 rel="noopener" 的 target="_blank" 外站链接会让打开的页面（在旧浏览器中）反过来操作本页，并得知访客的来源。',
      fix: '为在新标签页打开其他网站的链接加上 rel="noopener"（或 "noreferrer"）；详情面板列出了这些链接。',
    },
    'hreflang-no-x-default': {
      label: '没有 x-default 的 hreflang',
      why: '没有 x-default 时，语言与所有版本都不匹配的访客会看到搜索引擎自行挑选的版本。',
      fix: '为面向其他所有人的版本（或语言选择页）添加 hreflang="x-default" 链接。',
    },
    'security-no-hsts': {
      label: '缺少 HSTS 响应头',
      why: '没有 Strict-Transport-Security 时，访客的第一次请求可能走明文 HTTP 而被拦截。',
      fix: '在 HTTPS 响应中发送“Strict-Transport-Security: max-age=31536000”（所有子域都是 HTTPS 时加 includeSubDomains）。',
    },
    'security-no-csp': {
      label: '缺少 Content-Security-Policy',
      why: 'Content-Security-Policy 限制脚本等内容的加载来源，是防御跨站脚本攻击的主要手段。',
      fix: '发送列出页面所需来源的 Content-Security-Policy 响应头（可先用 Content-Security-Policy-Report-Only 试行）。',
    },
    'security-no-nosniff': {
      label: '缺少 X-Content-Type-Options',
      why: '没有“nosniff”时，浏览器可能猜测响应类型，把文件当作本不该是的脚本或样式表执行。',
      fix: '在每个响应中发送“X-Content-Type-Options: nosniff”。',
    },
    'security-no-frame-options': {
      label: '缺少 X-Frame-Options',
      why: '任何网站都能嵌入框架的页面可能被覆盖伪装，诱骗访客点击（点击劫持）。',
      fix: '发送“X-Frame-Options: SAMEORIGIN”（或 DENY），或带 frame-ancestors 指令的 Content-Security-Policy。',
    },
    // Duplicate content (issue 18.1).
    'content-exact-duplicates': {
      label: '完全重复的内容',
      why: '主体文本相同的页面在搜索结果中互相竞争，搜索引擎只会选择展示其中一个，未必是你想要的那个。',
      fix: '合并这些页面，将副本重定向到要保留的页面，或将它们的规范链接指向该页面。',
    },
    'content-near-duplicates': {
      label: '近似重复的内容',
      why: '主体文本几乎相同的页面看起来像彼此的单薄变体，会分散相关性和链接。',
      fix: '让每个页面的内容各有不同（详情面板会显示差异），或合并它们并将规范链接指向其中一个。',
    },
    'content-low': {
      label: '内容过少的页面',
      why: '主体文本很少的页面难以让搜索引擎和访客选择它们。',
      fix: '为页面补充有用的文字，或将其并入更完整的页面；如不打算参与排名，可将其排除在索引之外。',
    },
  },
};
