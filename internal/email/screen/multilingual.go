package screen

// Multilingual vocabulary for the injection signals. An attack written in
// Russian or informal French is the same attack: it speaks to the agent,
// overrides its instructions, asks for secrets or mail, and asks to keep
// quiet. These patterns give each of those signals words in the languages
// agents most often receive mail in (German, French, Spanish, Portuguese,
// Italian, Dutch, Russian, Polish, Chinese, Japanese, Korean, Turkish,
// Arabic, plus transliterated Russian and mixed-language phrasing), in
// formal and informal registers.
//
// Go's \b and \w are ASCII-only, so these patterns delimit non-Latin words
// with explicit character classes instead. Verbs are written in their
// imperative forms, which for Turkish, Japanese, Korean and Arabic also
// keeps the negated forms ("paylaşmayın", "送らないで", "보내지 마세요",
// "لا ترسل" — the usual "never share this code" of one-time-code mail) from
// matching. Text is lower-cased before matching.

const (
	// Agent nouns, for vocatives and addressing phrases.
	mlAgentLong = `(?:ki-assistent\pL*|ki-agent\pL*|ki-system\pL*|sprachmodell\pL*|assistent\pL*|` +
		`assistante? (?:ia|virtuel(?:le)?|intelligent)|agent (?:ia|intelligent|automatique)|l'ia|intelligence artificielle|modèle de langage|` +
		`asistente(?: de ia| virtual)?|agente(?: de ia| ia| ai| virtual)?|assistente(?: de ia| virtual| ia| ai| virtuale)?|modelo de (?:lenguaje|linguagem)|modello linguistico|intelig[eê]ncia artificial|intelligenza artificiale|` +
		`ai-assistent|ai-agent|taalmodel|` +
		`ии-ассистент\pL*|ии-агент\pL*|ai-ассистент\pL*|ассистент\pL*|помощник\pL*|агент(?:у|а|ом|ы)?|бот(?:у|а|ом|ы)?|нейросет\pL*|языков\pL* модел\pL*|` +
		`asyst\pL*|agen\pL* ai|czatbot\pL*|model\pL* językow\pL*|` +
		`yapay zeka\pL*(?: asistan\pL*)?|asistan\pL*|ajan\pL*|dil model\pL*|` +
		`المساعد|مساعد|الذكاء الاصطناعي|الوكيل|البوت)`
	// Bare abbreviations (KI, IA, ИИ) are also ordinary words in headlines
	// ("KI, Cloud und Daten"); they count only where the phrase is clearly
	// vocative or conditional.
	mlAgent = `(?:` + mlAgentLong + `|ki|ia|ии)`
	// Words that delimit a non-ASCII word (\b cannot).
	mlEnd = `(?:[^\pL\pN-]|$)`
	// Override verbs (imperatives) of languages with verb-object order.
	mlOverrideVerb = `(?:^|[^\pL])(?:ignorier\pL*|vergiss|vergessen sie|missacht\pL*|verwirf|verwerfen sie|` +
		`ignorez|ignorer|oublie[rz]?|fais abstraction|faites abstraction|ne tiens pas compte|ne tenez pas compte|laisse[rz]? tomber|` +
		`ignora[rd]?|olvida[rd]?|olvide|omite|descarta|haz caso omiso|desobedece|` +
		`esqueça|esquece|esquecer|desconsidere|desconsidera|descarte|` +
		`dimentica(?:re)?|trascura|non tenere conto|` +
		`negeer|vergeet|negeren|` +
		`игнорир\pL*|проигнорир\pL*|забуд\pL*|забыть|отбрось\pL*|не обращай\pL* внимани\pL*|не следуй\pL*|пренебреги|` +
		`zignoruj\pL*|ignoruj\pL*|zapomnij\pL*|pomiń|odrzuć|` +
		`ignoriru\pL*|proignoriru\pL*|zabud\pL*)`
	// Instruction nouns in every language (English too, for mixed phrasing).
	mlInstrNoun = `(?:instructions?|prompts?|rules|guidelines|directives?|` +
		`anweisung\pL*|instruktion\pL*|regeln|befehl\pL*|vorgaben|richtlinien|systemprompt\pL*|` +
		`consignes|règles|ordres|` +
		`instrucciones|indicaciones|órdenes|reglas|directrices|` +
		`instruções|instrucoes|orientações|regras|diretrizes|ordens|` +
		`istruzioni|regole|direttive|indicazioni|` +
		`instructies|regels|richtlijnen|opdrachten|aanwijzingen|` +
		`инструкц\pL*|указани\pL*|правил\pL*|команд\pL*|установк\pL*|промпт\pL*|промт\pL*|директив\pL*|` +
		`instrukcj\pL*|polece\pL*|zasad\pL*|reguł\pL*|wytyczn\pL*|` +
		`instrukci\pL*|instruktsi\pL*|ukazani\pL*)`
	// Instruction nouns of other languages only, after an English verb.
	mlForeignNoun = `(?:anweisung\pL*|instruktion\pL*|vorgaben|consignes|instrucciones|indicaciones|instruções|instrucoes|istruzioni|instructies|инструкц\pL*|указани\pL*|instrukcj\pL*|polece\pL*)`
	// Exfiltration verbs (imperatives), verb-object languages.
	mlSendVerb = `(?:^|[^\pL])(?:sende\pL*|schick\pL*|leite\pL*|weiterleit\pL*|gib|geben sie|teile\pL*|nenne\pL*|übermittle\pL*|verrate\pL*|` +
		`envoie\pL*|envoyez|envoyer|transmets|transmettez|transmettre|transf[eè]re\pL*|transférez|communique\pL*|donne\pL*|partage\pL*|révèle\pL*|révélez|divulgue\pL*|colle\pL*|renvoie\pL*|` +
		`env[ií]a\pL*|env[ií]e\pL*|reenv[ií]a\pL*|reenv[ií]e\pL*|manda\pL*|comparte\pL*|dame|danos|proporciona\pL*|revela\pL*|facilita\pL*|` +
		`envie\pL*|encaminh\pL*|mande\pL*|compartilh\pL*|partilh\pL*|revele\pL*|passe\pL*|forneça\pL*|` +
		`invia\pL*|inoltra\pL*|condividi\pL*|dammi|fornisci\pL*|rivela\pL*|girami|trasmetti\pL*|` +
		`stuur\pL*|verstuur\pL*|doorsturen|deel|geef|onthul\pL*|` +
		`отправ\pL*|перешл\pL*|пересыл\pL*|пересла\pL*|вышл\pL*|пришл\pL*|сообщи\pL*|передай\pL*|передать|скинь\pL*|покажи\pL*|раскрой\pL*|выдай\pL*|перенаправ\pL*|` +
		`wyślij\pL*|prześlij\pL*|przekaż\pL*|udostępnij\pL*|podaj\pL*|ujawnij\pL*|pokaż\pL*|przekieruj\pL*|` +
		`otprav\pL*|peresh?li\pL*)`
	// Secrets in every language (English included, for mixed phrasing).
	mlSecret = `(?:passwords?|passcodes?|credentials|api[ -]?keys?|codes|system prompt|` +
		`passw[oö]rt\pL*|kennw[oö]rt\pL*|zugangsdaten|anmeldedaten|bestätigungscode\pL*|api-schlüssel\pL*|schlüssel|` +
		`mots? de passe|identifiants|clés?(?: api)?|jetons?|codes? de (?:connexion|vérification|validation|sécurité)|prompt système|` +
		`contraseñas?|c[oó]digos?|credenciales|claves?|prompt del sistema|` +
		`senhas?|credenciais|chaves?|prompt do sistema|` +
		`codici|codice|credenziali|chiav[ei]|prompt di sistema|` +
		`wachtwoord\pL*|inloggegevens|sleutels?|api-sleutel\pL*|systeemprompt|` +
		`парол\pL*|код(?:ы|а|ом|ами)?` + mlEnd + `|ключ\pL*|токен\pL*|учётн\pL* данн\pL*|учетн\pL* данн\pL*|логин\pL*|системн\pL* (?:промпт|промт|инструкц)\pL*|` +
		`hasł\pL*|hasło|kod(?:y|u|ów)?` + mlEnd + `|klucz\pL*|dane logowania|dane uwierzytelniające|prompt systemowy|` +
		`parol(?:i|yami|ami)?` + mlEnd + `)`
	// Mail and data in verb-object languages.
	mlData = `(?:e-?mails|mails|nachrichten|korrespondenz|kontakte|posteingang\pL*|adressbuch|` +
		`courriels|messages|contacts|correspondance|boîte de réception|carnet d'adresses|` +
		`correos|mensajes|contactos|bandeja de entrada|mensagens|contatos|caixa de entrada|` +
		`messaggi|contatti|casella|posta|berichten|contacten|inbox|mailbox|` +
		`письма|писем|сообщени\pL*|переписк\pL*|контакт\pL*|почт\pL*|входящ\pL*|` +
		`e-?maile|maile|wiadomości|kontakty|korespondencj\pL*|skrzynk\pL*)`
)

// addMultilingual adds the non-English patterns through add (see
// newInjectionRules).
func addMultilingual(add func(sig signal, negatable bool, exprs ...string)) {
	add(sigAddress, false,
		// Vocative: "ИИ-ассистент, ...", "Liebe KI: ...", "Asystencie, ..."
		`(?m)(?:^|[.!?]\s+)[\s*\[(-]*(?:(?:liebe[rs]?|hallo|hey|hi|cher|chère|bonjour|salut|querid[oa]|hola|car[oa]|olá|ciao|beste|hoi|уважаем\pL*|дорог\pL*|привет|здравствуй\pL*|drog\pL*|cześć|sevgili|sayın|merhaba|عزيزي|أيها|مرحبا)\s+)?(?:(?:la|el|le|l'|o|a|il|lo|der|die|het|de)\s*)?`+mlAgent+`\s*(?:[:,،]|—|–| - )`,
		// Addressed to the agent: "Pour l'agent IA", "An den KI-Assistenten", "Для ИИ"
		`(?:^|[^\pL])(?:an|für|pour|à|au|aux|para|al|ao|per|all'|alla|aan|voor|для|к|do|dla)\s+(?:(?:den|die|das|alle|jeden|jede|l'|le|la|les|tout|toute|tous les|chaque|el|los|cualquier|o|a|os|qualquer|il|lo|qualsiasi|ogni|de|het|elke|iedere|любому|каждому|всех|każdego)\s*)?`+mlAgentLong+mlEnd,
		// Relative clause: "l'agent IA qui lit cette boîte", "ассистент, который читает"
		`(?:^|[^\pL])`+mlAgent+`,?\s+(?:qui|que|che|der|die|das|welche[rs]?|dat|который|которая|что|który|która|co|الذي|التي)\s+(?:[^.!?\n]{0,30}\s)?(?:lit|lis|traite|gère|trie|résume|surveille|reçoit|lee|lê|legge|procesa|processa|gestiona|gerencia|gestisce|revisa|analiza|analisa|resume|riassume|liest|bearbeitet|verarbeitet|verwaltet|sortiert|zusammenfasst|betreut|prüft|leest|verwerkt|beheert|sorteert|читает|обрабатывает|ведёт|ведет|разбирает|сортирует|проверяет|czyta|przetwarza|obsługuje|sortuje|sprawdza|يقرأ|تقرأ|يعالج|تعالج|يدير|تدير)`+mlEnd,
		// Whoever processes the mail, in other languages: "til den som
		// oppsummerer innboksen:", "a quien lea este correo", "à la
		// personne qui trie ces messages".
		`(?:^|[^\pL])(?:til den som|till den som|til den der|an die person,? die|an (?:den|die),? (?:der|die) (?:diese|das|die)|an wen auch immer|à (?:la personne|celui|quiconque) qui|a quien|a quem|a chi|aan wie|aan degene die|do osoby,? która|для того,? кто|тому,? хто)\s+(?:[^.!?\n]{0,20}\s)?(?:lees|lee|lea|lit|lê|ler|legge|leest|liest|leser|läser|læser|oppsummer\pL*|sammanfattar|opsummerer|resum\pL*|riassum\pL*|zusammenfass\pL*|samenvat\pL*|behandl\pL*|hanterar|trie|sortiert|procesa|processa|bearbeitet|verwerkt|czyta|читает|читає)\b`,
		// Conditional: "si tu es une IA", "если ты ИИ", "wenn du eine KI bist"
		`(?:^|[^\pL])(?:(?:wenn|falls) (?:du|sie) (?:ein|eine)|si (?:tu es|vous êtes|eres|es usted)|se (?:você é|voce é|és|tu és|sei)|als (?:je|u) (?:een|de)|если (?:ты|вы)|jeśli (?:jesteś|pan jest)|إذا كنت)\s+[^.!?\n]{0,24}?(?:ki|ia|ai|ии|assistent\pL*|assistant|asistente|assistente|agent\pL*|agente|bot\pL*|modèle|modelo|modello|sprachmodell|taalmodel|ассистент\pL*|бот\pL*|нейросет\pL*|модел\pL*|помощник\pL*|asystent\pL*|مساعد|نموذج|ذكاء)`+mlEnd,
		// Chinese, Japanese, Korean, Turkish, Arabic addressing forms.
		`(?:致|给|給|对|對)(?:所有|任何|正在)?.{0,8}(?:ai|助手|助理|人工智能|机器人|機器人|模型|智能体|代理)`,
		`(?:如果|若|假如)你是.{0,10}(?:ai|助手|助理|人工智能|模型|机器人|機器人)`,
		`(?:正在)?(?:阅读|处理|读取|閱讀|處理|管理)(?:这|此|這)(?:个|個|封)?(?:邮箱|邮件|信箱|郵件|郵箱).{0,6}(?:ai|助手|助理|人工智能|模型|机器人|代理)`,
		`(?:ai|アシスタント|エージェント|ボット|言語モデル)(?:の方|さん|様)?(?:へ|に告ぐ)`,
		`(?:もし)?あなたが(?:ai|アシスタント|エージェント|ボット|言語モデル)(?:なら|であれば|の場合)`,
		`(?:メール|受信箱|メールボックス)を(?:読んで|処理して|管理して)いる(?:ai|アシスタント|エージェント|ボット)`,
		`(?:ai|어시스턴트|에이전트|비서|챗봇|인공지능)(?:님)?(?:에게|께|한테)`,
		`(?:당신이|네가|너가) (?:ai|어시스턴트|에이전트|인공지능|챗봇)(?:라면|이라면)`,
		`(?:메일|이메일|받은편지함|메일함)[을를]? (?:읽는|처리하는|관리하는) (?:ai|어시스턴트|에이전트|비서)`,
		`(?:yapay zeka asistanına|yapay zekaya|asistanına|asistana|ajana|bota)`+mlEnd,
		`(?:yapay zeka|asistan|bot|dil modeli)\pL* ?(?:isen|iseniz|ysan|ysanız|ysen)`+mlEnd,
		`(?:e-?postay[ıi]|e-?postalar[ıi]|gelen kutusunu|mesajlar[ıi]) (?:okuyan|işleyen|yöneten) (?:yapay zeka|asistan|ajan|bot)`,
		`(?:إلى|الى)\s?(?:ال)?(?:مساعد|وكيل|ذكاء الاصطناعي|نموذج|بوت)`,
	)
	add(sigOverride, true,
		// Verb then instruction noun, in any mix of languages.
		mlOverrideVerb+`[^.!?\n]{0,40}?`+mlInstrNoun,
		`\b(?:ignore|disregard|forget|override)\b[^.!?\n]{0,30}?`+mlForeignNoun,
		// Object-verb languages.
		`(?:指令|指示|说明|說明|规则|規則|提示词|提示詞|设定|設定)[^。！？\n]{0,12}(?:无视|無視|忽略|忘记|忘記|不要理会|不要理會)`,
		`(?:忽略|无视|忘记|忽视|忘掉|無視|忘記|不要理会|不要理會|别管|別管)[^。！？\n]{0,12}(?:指令|指示|说明|說明|规则|規則|提示词|提示詞|设定|設定|要求)`,
		`(?:指示|命令|ルール|規則|プロンプト|設定)[^。！？\n]{0,12}(?:無視|忘れ|従わな)`,
		`(?:지시|지침|명령|규칙|프롬프트|설정)[^.!?\n]{0,15}(?:무시|잊어|잊고|따르지)`,
		`(?:talimat|yönerge|komut|kural|istem)\pL*[^.!?\n]{0,30}(?:yok say|görmezden gel|unut|dikkate alma|uyma)`,
		`(?:تجاهل|تجاهلي|انس|انسى|لا تتبع|لا تلتزم|تخط)[^.!?\n]{0,30}(?:التعليمات|تعليمات|الأوامر|التوجيهات|القواعد|الإرشادات)`,
		// "You are now ..." and "from now on you ..."
		`(?:^|[^\pL])(?:du bist (?:jetzt|ab sofort|nun)|ab (?:sofort|jetzt) bist du|tu es (?:maintenant|désormais|dorénavant)|vous êtes (?:maintenant|désormais)|(?:à partir de maintenant|désormais|dorénavant),? (?:tu|vous)|(?:a partir de ahora|desde ahora),? (?:eres|serás|actúa)|ahora eres|(?:a partir de agora,? )?(?:você é|voce é|tu és) agora|a partir de agora,? (?:você|voce|tu)|(?:da ora in poi|d'ora in poi|adesso),? (?:sei|tu sei|sarai)|(?:je bent|jij bent|u bent) (?:nu|vanaf nu)|vanaf nu ben je|(?:теперь|отныне|с этого момента) (?:ты|вы)|od (?:teraz|tej chwili) jesteś|teraz jesteś)`+mlEnd,
		`(?:你现在是|你現在是|从现在开始,?你|從現在開始,?你|从现在起,?你|あなたは今から|今からあなたは|これからあなたは|지금부터 (?:너는|당신은)|artık sen|bundan sonra sen|أنت الآن|من الآن فصاعدا)`,
		// Role-play framings.
		`(?:finge|finja|imagina) que (?:eres|és|você é)|stell dir vor,? du bist|fais semblant|faites semblant|fingi di essere|immagina di essere|doe alsof je|представь,? что ты|притворись|притворитесь|udawaj,? że|wyobraź sobie,? że jesteś|假装你是|假裝你是|请扮演|請扮演|你扮演|のふりをして|になりきって|척해|역할을 해|rolünü oyna|تظاهر بأنك`,
	)
	add(sigNewRule, true,
		// "New instructions:"
		`(?:nuevas instrucciones|neue anweisung\pL*|nouvelles? (?:instructions|consignes)|novas instruções|nuove istruzioni|nieuwe instructies|новые инструкции|новая инструкция|nowe instrukcje|新的指令|新指令|新しい指示|새로운 지시|yeni talimat\pL*|تعليمات جديدة)\s*[:：]`,
	)
	add(sigExfilSecret, true,
		mlSendVerb+`[^.!?\n]{0,80}?`+mlSecret,
		`(?:发送|转发|发给|發送|轉發|發給|告诉我|告訴我|提供)[^。！？\n]{0,20}(?:密码|密碼|验证码|驗證碼|密钥|密鑰|令牌|凭证|憑證|系统提示|系統提示)`,
		`(?:密码|密碼|验证码|驗證碼|密钥|密鑰|令牌|凭证|憑證|系统提示|系統提示)[^。！？\n]{0,20}(?:发送|转发|发给|發送|轉發|發給|告诉|告訴|提供)`,
		`(?:パスワード|暗証番号|認証コード|確認コード|コード|apiキー|キー|秘密鍵|トークン|認証情報|システムプロンプト)[^。！？\n]{0,20}(?:送って|送信して|転送して|教えて|共有して|送れ|送信せよ|転送せよ|返信して|貼り付けて|記載して)`,
		`(?:비밀번호|암호|인증 ?코드|인증번호|코드|api ?키|키|토큰|자격 ?증명|시스템 ?프롬프트)[^.!?\n]{0,20}(?:보내|전송해|전달해|알려|공유해|포워딩해)(?:줘|주세요|주십시오|라|십시오|요)`,
		`(?:şifre|parola|kod|doğrulama kodu|api anahtar|anahtar|token|kimlik bilgi|sistem istem)\pL*[^.!?\n]{0,40}(?:gönder|ilet|paylaş|yolla|ver|yönlendir)(?:in|iniz)?`+mlEnd,
		`(?:أرسل|ارسل|أرسلي|حوّل|حول|شارك|زودني|زودنا|أعطني|اعطني|أعد توجيه|اكشف)[^.!?\n]{0,40}(?:كلمة المرور|كلمات المرور|كلمة السر|الرمز|رمز التحقق|الرموز|مفتاح|المفاتيح|بيانات الاعتماد|موجه النظام)`,
	)
	add(sigExfilData, true,
		mlSendVerb+`[^.!?\n]{0,80}?`+mlData+mlEnd,
		mlSendVerb+`[^.!?\n]{0,120}?[\pL\pN._+-]+@[\pL\pN-]+\.\pL`,
		`(?:すべての|全ての|全部の)?(?:メール|受信メール|メッセージ|連絡先)[^。！？\n]{0,20}(?:転送して|送って|送信して|転送せよ)`,
		`(?:이메일|메일|메시지|연락처)[^.!?\n]{0,20}(?:보내|전송해|전달해|포워딩해)(?:줘|주세요|주십시오|라|십시오|요)`,
		`(?:e-?posta|mesaj|kişi|yazışma)\pL*[^.!?\n]{0,40}(?:ilet|gönder|yönlendir|yolla)(?:in|iniz)?`+mlEnd,
		`(?:أرسل|ارسل|حوّل|حول|أعد توجيه)[^.!?\n]{0,40}(?:جميع|كل) (?:الرسائل|رسائل|الإيميلات|البريد)`,
	)
	add(sigConceal, true,
		`(?:sag|sage|sagen sie|erzähl|erzähle|verrate|informiere|informieren sie|benachrichtige)\pL* (?:es |das |davon )?(?:niemandem|niemanden|keinem)|ohne (?:rückfrage|bestätigung|freigabe|prüfung|nachfrage)|ohne (?:den |die )?(?:nutzer|benutzer|user|menschen|inhaber)\pL* zu (?:fragen|informieren|benachrichtigen)|(?:informiere|benachrichtige|frage) (?:den |die )?(?:nutzer|benutzer|user|besitzer)\pL* nicht`,
		`(?:^|[^\pL])ne (?:dis|dites|préviens|prévenez|informe|informez|mentionne|mentionnez|avertis|avertissez|signale|signalez|parle|parlez)\pL* (?:rien|personne|pas)|n'en parle\pL* à personne|n'informe\pL* (?:pas|personne)|sans (?:confirmation|validation|vérification|prévenir|avertir|demander|informer|en parler)`,
		`(?:^|[^\pL])no (?:se lo |me lo |le |les )?(?:digas|diga|informes|informe|avises|avise|notifiques|menciones|cuentes)|sin (?:avisar|decir(?:le)?|informar|confirmación|consultar|preguntar|notificar)`,
		`(?:^|[^\pL])não (?:conte|contes|avise|avises|informe|informes|mencione|notifique|diga|digas)|sem (?:avisar|informar|confirmação|confirmar|perguntar|consultar|notificar)`,
		`(?:^|[^\pL])non (?:dirlo|dire|avvisare|informare|menzionare|notificare|segnalare)|senza (?:avvisare|informare|conferma|chiedere|notificare|dirlo)`,
		`(?:vertel|zeg|meld) (?:het |dit |dat )?(?:aan )?niemand|zonder (?:te (?:vragen|melden|informeren|bevestigen)|bevestiging|goedkeuring)|(?:informeer|waarschuw) (?:de gebruiker|niemand) niet`,
		`(?:^|[^\pL])не (?:сообщай|сообщайте|говори|говорите|уведомляй|уведомляйте|предупреждай|предупреждайте|информируй|информируйте|упоминай|упоминайте|спрашивай|спрашивайте)|никому не (?:говори|сообщай|рассказывай)|без (?:подтверждени|уведомлени|ведома|согласовани)|незаметно для`,
		`(?:^|[^\pL])nie (?:mów|informuj|powiadamiaj|wspominaj|pytaj)\pL*|nikomu nie (?:mów|mówcie)|bez (?:potwierdzenia|pytania|informowania|wiedzy)`,
		`(?:不要|别|別|勿)(?:告诉|告訴|通知|告知|提及|让用户知道|讓用戶知道)|(?:无需|不需要|不必|無需)(?:确认|確認|审批|批准|审核|審核)|悄悄|偷偷`,
		`(?:ユーザー|誰|だれ|上司)に(?:も)?(?:言わ|知らせ|伝え|報告し|通知し)ないで|確認(?:なし|せず)に?|こっそり|内緒で`,
		`(?:사용자|아무|누구)(?:에게|한테)?(?:도)? (?:알리지|말하지|보고하지) ?(?:마|말고)|확인 없이|몰래`,
		`kimseye (?:söyleme|haber verme|bildirme|anlatma)|kullanıcıya (?:söyleme|haber verme|bildirme)|onay (?:almadan|beklemeden)|habersizce`,
		`لا (?:تخبر|تُخبر|تبلغ|تُبلغ|تعلم|تُعلم|تذكر)|(?:دون|بدون) (?:إبلاغ|اعلام|إعلام|علم|تأكيد)`,
	)
	add(sigSensitive, false,
		`passw[oö]rt|kennw[oö]rt|zugangsdaten|mots? de passe|identifiants|contraseña|credenciales|senha|credenciais|credenziali|wachtwoord|inloggegevens|парол|учётн\pL* данн|учетн\pL* данн|hasł|dane logowania|密码|密碼|验证码|驗證碼|密钥|パスワード|認証コード|비밀번호|인증번호|şifre|كلمة المرور|كلمة السر`)
}
